// 8-bit grey pictures in memory: binary PGM (what `pdftoppm -gray` writes and tesseract reads)
// and any image file decoded with sharp (libvips, loaded on first use; optional).
import { open, readFile } from 'node:fs/promises';

export interface GrayImage {
  width: number;
  height: number;
  /** One byte per pixel, rows top to bottom, 0 = black. */
  data: Uint8Array;
}

/** Parses a binary PGM (P5, maxval < 256). Undefined for anything else. */
export function parsePgm(bytes: Uint8Array): GrayImage | undefined {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x35) return undefined;
  const fields: number[] = [];
  let i = 2;
  while (fields.length < 3 && i < bytes.length) {
    const c = bytes[i]!;
    if (c === 0x23) {
      // comment to end of line
      while (i < bytes.length && bytes[i] !== 0x0a) i++;
    } else if (c >= 0x30 && c <= 0x39) {
      let n = 0;
      while (i < bytes.length && bytes[i]! >= 0x30 && bytes[i]! <= 0x39) n = n * 10 + (bytes[i++]! - 0x30);
      fields.push(n);
      continue;
    }
    i++;
  }
  // One whitespace byte separates the header from the pixels.
  i++;
  const [width, height, maxval] = fields as [number, number, number];
  if (!width || !height || !maxval || maxval > 255 || bytes.length - i < width * height) return undefined;
  let data = new Uint8Array(bytes.buffer, bytes.byteOffset + i, width * height);
  if (maxval !== 255) data = data.map((v) => Math.round((v * 255) / maxval));
  return { width, height, data };
}

// Ink darker than this counts (anti-aliased edges of glyphs do not).
export const DARK = 128;
// Side in pixels of the squares ink is counted in (darkPerCell reads four pixels at a time: keep it 4).
export const CELL = 4;

/**
 * Dark pixels in each CELL x CELL square, in rows of ceil(width / CELL) squares. One pass over
 * the page's pixels, most of them paper: four at a time, read as one word (rows start at any
 * byte, hence the DataView), whose bytes' top bits say which are darker than DARK (128).
 */
export function darkPerCell({ width, height, data }: GrayImage): Uint16Array {
  const gw = Math.ceil(width / CELL);
  const ink = new Uint16Array(gw * Math.ceil(height / CELL));
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const whole = width - (width % CELL);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const cells = ((y / CELL) | 0) * gw;
    for (let x = 0, g = cells; x < whole; x += CELL, g++) {
      const dark = ~view.getUint32(row + x, true) & 0x80808080;
      if (dark !== 0) ink[g]! += ((dark >>> 7) & 1) + ((dark >>> 15) & 1) + ((dark >>> 23) & 1) + (dark >>> 31);
    }
    for (let x = whole; x < width; x++) if (data[row + x]! < DARK) ink[cells + ((x / CELL) | 0)]!++;
  }
  return ink;
}

export function encodePgm(image: GrayImage): Buffer {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii');
  return Buffer.concat([header, image.data]);
}

export async function readPgm(path: string): Promise<GrayImage | undefined> {
  return parsePgm(new Uint8Array(await readFile(path)));
}

export async function writePgm(path: string, image: GrayImage): Promise<void> {
  // Header and pixels written one after the other: no copy of the pixels.
  const file = await open(path, 'w');
  try {
    await file.write(Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii'));
    await file.write(image.data);
  } finally {
    await file.close();
  }
}

type Sharp = typeof import('sharp');
let sharpLoading: Promise<Sharp | undefined> | undefined;

/** sharp when it is installed and loads on this machine, else undefined (OCR then reads the file as is). */
function loadSharp(): Promise<Sharp | undefined> {
  sharpLoading ??= import('sharp').then(
    (m) => {
      const sharp = (m as unknown as { default: Sharp }).default ?? (m as unknown as Sharp);
      // One libvips thread per decode (pages are already read side by side) and no operation
      // cache: each picture is decoded once.
      sharp.concurrency(1);
      sharp.cache(false);
      return sharp;
    },
    () => undefined,
  );
  return sharpLoading;
}

// Pictures larger than this (pixels) are not decoded for rule detection: tesseract reads them as they are.
const MAX_PIXELS = 120_000_000;

export interface DecodedImage extends GrayImage {
  /** pixels per inch, as the file states it (cameras and screenshots state 72 or 96 whatever they hold) */
  density?: number;
}

/**
 * An image file (page `page`, 0-based, of a multi-page TIFF) as upright grey pixels: EXIF
 * orientation applied, transparency laid over white. Undefined when it cannot be decoded here.
 */
export async function decodeImage(input: string | Uint8Array, page = 0): Promise<DecodedImage | undefined> {
  const sharp = await loadSharp();
  if (!sharp) return undefined;
  try {
    const image = sharp(input, { page, limitInputPixels: MAX_PIXELS, failOn: 'error', sequentialRead: true });
    // Without transparency, the pixels are turned grey as they are read (the same greys, a third
    // less time than converting the colour picture afterwards); with it, they are laid over
    // white first. Turned upright only when EXIF says the picture is turned (a no-op turn still
    // costs a tenth of the decoding).
    const { hasAlpha, orientation, density } = await image.metadata();
    const upright = orientation !== undefined && orientation !== 1 ? image.rotate() : image;
    const pipeline = hasAlpha ? upright.flatten({ background: '#ffffff' }).greyscale() : upright.pipelineColourspace('b-w').toColourspace('b-w');
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) return undefined;
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), density };
  } catch {
    return undefined;
  }
}


/** The picture turned `clockwise` degrees (a new picture; the input is left as it is). */
export function turnGray(image: GrayImage, clockwise: 0 | 90 | 180 | 270): GrayImage {
  const { width: W, height: H, data } = image;
  if (clockwise === 0) return { width: W, height: H, data: new Uint8Array(data) };
  if (clockwise === 180) return { width: W, height: H, data: new Uint8Array(data).reverse() };
  const out = new Uint8Array(W * H);
  // Quarter turns: the turned picture is H wide; written row by row of the source.
  if (clockwise === 90) {
    // (x, y) -> (H - 1 - y, x)
    for (let y = 0; y < H; y++) {
      const row = y * W;
      const col = H - 1 - y;
      for (let x = 0; x < W; x++) out[x * H + col] = data[row + x]!;
    }
  } else {
    // (x, y) -> (y, W - 1 - x)
    for (let y = 0; y < H; y++) {
      const row = y * W;
      for (let x = 0; x < W; x++) out[(W - 1 - x) * H + y] = data[row + x]!;
    }
  }
  return { width: H, height: W, data: out };
}

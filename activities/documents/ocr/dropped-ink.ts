// Text tesseract left out. Sparse-text reading (psm 11) drops lone short words, typically a
// one-character cell ("7", "X"). Ink that no recognised word covers is gathered into blobs of
// text size; the blobs are stacked into one small picture, one per line, and read in a single
// extra tesseract call as a uniform block (psm 6), then mapped back to the page.
import { CELL, DARK, darkPerCell, type GrayImage } from './gray-image.js';
import type { OcrWord } from './tesseract.js';

export interface InkBlob {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

// Text-sized blobs only, in inches: 5 pt to about 28 pt glyphs, words no longer than 1.5 inch.
const MIN_HEIGHT_IN = 0.05;
const MAX_HEIGHT_IN = 0.4;
const MAX_WIDTH_IN = 1.5;
// Fewer dark pixels than this is dust or a speck (inches squared: about a 0.3 mm square... scaled by dpi).
const MIN_INK_IN2 = 0.0004;
// Top and bottom margins: this share of the page's height each.
const MARGIN_SHARE = 0.12;
// At most this many blobs per page are read back; more means a picture or noise, not dropped text.
const MAX_BLOBS = 400;

type Part = InkBlob & { ink: number };

/** Ink that no tesseract word covers: text-sized blobs to read back, and lone dashes. */
export function uncoveredInk(image: GrayImage, words: readonly OcrWord[], dpi: number): { text: InkBlob[]; dashes: Dash[] } {
  const minH = MIN_HEIGHT_IN * dpi;
  const maxH = MAX_HEIGHT_IN * dpi;
  const maxW = MAX_WIDTH_IN * dpi;
  const minInk = MIN_INK_IN2 * dpi * dpi;
  const ink = darkPerCell(image);
  coverWords(ink, image, words, Math.max(1, Math.round((0.02 * dpi) / CELL)));
  const parts = inkParts(ink, image, maxH, maxW);
  if (parts.length > 20 * MAX_BLOBS) return { text: [], dashes: [] };
  const blobs = joinParts(parts);
  // Dropped text is set like the text around it: about as tall as the page's words.
  const heights = words.map((w) => w.y1 - w.y0).sort((a, b) => a - b);
  const typical = heights.length ? heights[heights.length >> 1]! : 0;
  const inMargin = marginTest(words, image.height);
  const kept = blobs.filter((b) => {
    const h = b.y1 - b.y0;
    const w = b.x1 - b.x0;
    const likeText = typical === 0 || (h >= 0.5 * typical && h <= 1.6 * typical);
    return likeText && h >= minH && h <= maxH && w <= maxW && b.ink >= minInk && w >= 0.3 * h && !inMargin(b) && !withinReadLine(b, words);
  });
  if (kept.length > MAX_BLOBS) return { text: [], dashes: [] };
  const box = ({ x0, y0, x1, y1 }: InkBlob): InkBlob => ({ x0, y0, x1, y1 });
  const dashes: Dash[] = [];
  for (const b of typical === 0 ? [] : blobs) {
    const line = inMargin(b) ? undefined : dashLine(image, b, typical, words);
    // As tall as the text of its line (the layout sizes words by their height). As long as a
    // figure is tall or longer: a dash set for a nil amount (—); shorter: a hyphen.
    if (line) dashes.push({ x0: b.x0, x1: b.x1, y0: line.y0, y1: line.y1, text: b.x1 - b.x0 >= EM_DASH_LENGTH * typical ? '—' : '-' });
  }
  return { text: kept.map(box), dashes: dashes.slice(0, MAX_BLOBS) };
}

// The phases below are separate functions, not one: V8 optimises a long function with several
// hot loops while its later loops have run too little to say what they handle, then throws the
// optimised code away and compiles it again (up to 13 times a batch for the one function this
// was, 0.1 s of compiling each time).

/** Clears the ink counts under the words, `margin` squares around each. */
function coverWords(ink: Uint16Array, image: GrayImage, words: readonly OcrWord[], margin: number): void {
  const gw = Math.ceil(image.width / CELL);
  const gh = Math.ceil(image.height / CELL);
  for (const w of words) {
    const gx0 = Math.max(0, Math.floor(w.x0 / CELL) - margin);
    const gx1 = Math.min(gw - 1, Math.floor((w.x1 - 1) / CELL) + margin);
    const gy0 = Math.max(0, Math.floor(w.y0 / CELL) - margin);
    const gy1 = Math.min(gh - 1, Math.floor((w.y1 - 1) / CELL) + margin);
    for (let gy = gy0; gy <= gy1; gy++) ink.fill(0, gy * gw + gx0, gy * gw + gx1 + 1);
  }
}

/** Connected pieces of the remaining ink (squares touching, diagonals included) no larger than text. */
export function inkParts(ink: Uint16Array, image: GrayImage, maxH: number, maxW: number): Part[] {
  const { width, height } = image;
  const gw = Math.ceil(width / CELL);
  const gh = Math.ceil(height / CELL);
  const seen = new Uint8Array(gw * gh);
  const stack: number[] = [];
  const parts: Part[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    seen[start] = 1;
    stack.push(start);
    let gx0 = gw;
    let gy0 = gh;
    let gx1 = -1;
    let gy1 = -1;
    let count = 0;
    while (stack.length) {
      const i = stack.pop()!;
      const gx = i % gw;
      const gy = (i / gw) | 0;
      count += ink[i]!;
      if (gx < gx0) gx0 = gx;
      if (gx > gx1) gx1 = gx;
      if (gy < gy0) gy0 = gy;
      if (gy > gy1) gy1 = gy;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = gy + dy;
        if (ny < 0 || ny >= gh) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = gx + dx;
          if (nx < 0 || nx >= gw) continue;
          const j = ny * gw + nx;
          if (ink[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
    }
    const b = { x0: gx0 * CELL, y0: gy0 * CELL, x1: Math.min(width, (gx1 + 1) * CELL), y1: Math.min(height, (gy1 + 1) * CELL), ink: count };
    // Glyph pieces (the dot of an i, parts of a broken digit) are joined below; keep small ones for now.
    if (b.y1 - b.y0 <= maxH && b.x1 - b.x0 <= maxW) parts.push(b);
  }
  return parts;
}

/** Pieces on one text line with glyph-sized gaps between them, joined into blobs. */
function joinParts(parts: Part[]): Part[] {
  parts.sort((a, b) => a.x0 - b.x0);
  const blobs: Part[] = [];
  for (const p of parts) {
    const h = p.y1 - p.y0;
    const near = blobs.find((b) => {
      const overlap = Math.min(b.y1, p.y1) - Math.max(b.y0, p.y0);
      return overlap > 0.3 * Math.min(h, b.y1 - b.y0) && p.x0 - b.x1 < 0.5 * Math.max(h, b.y1 - b.y0) && p.x0 >= b.x0 - CELL;
    });
    if (near) {
      near.x0 = Math.min(near.x0, p.x0);
      near.y0 = Math.min(near.y0, p.y0);
      near.x1 = Math.max(near.x1, p.x1);
      near.y1 = Math.max(near.y1, p.y1);
      near.ink += p.ink;
    } else blobs.push({ ...p });
  }
  return blobs;
}

// Ink closer than this share of its height to a word on each side is inside a run of text.
const WITHIN_TEXT_GAP = 0.5;

/**
 * Whether a blob sits between two words of one line tesseract read, tight against both: a piece
 * of one of them that its box left out (the last "t" of "payment", read back alone as "L"), not
 * a word tesseract dropped; those stand apart, alone in their cell.
 */
function withinReadLine(b: InkBlob, words: readonly OcrWord[]): boolean {
  const cy = (b.y0 + b.y1) / 2;
  const gap = WITHIN_TEXT_GAP * (b.y1 - b.y0);
  const onLine = (w: OcrWord): boolean => cy > w.y0 && cy < w.y1;
  const left = words.find((w) => onLine(w) && w.x1 <= b.x0 + CELL && b.x0 - w.x1 < gap);
  return left !== undefined && words.some((w) => w.line === left.line && onLine(w) && w.x0 >= b.x1 - CELL && w.x0 - b.x1 < gap);
}

/**
 * Whether a blob lies in the top or bottom margin of the page beyond every word (a page number,
 * a running head's mark): no part of a table, so it is not read back.
 */
function marginTest(words: readonly OcrWord[], height: number): (b: InkBlob) => boolean {
  let top = height;
  let bottom = 0;
  for (const w of words) {
    if (w.y0 < top) top = w.y0;
    if (w.y1 > bottom) bottom = w.y1;
  }
  return (b) => {
    const cy = (b.y0 + b.y1) / 2;
    return words.length > 0 && ((cy > bottom && cy > (1 - MARGIN_SHARE) * height) || (cy < top && cy < MARGIN_SHARE * height));
  };
}

// A dash alone in a cell (a nil amount: "-", "—") is a bar: flat, a glyph or two long, one
// unbroken run of ink, across the middle of a text line, with no word close by. Too flat for a
// text blob, and tesseract seldom reads it alone, so it is recognised here by its shape.
const DASH_MIN_LENGTH = 0.2; // of the typical word height
const DASH_MAX_LENGTH = 1.6;
const DASH_MAX_THICKNESS = 0.25;
const EM_DASH_LENGTH = 1.0;
// no word of its line nearer than this (share of the typical word height)
const DASH_CLEARANCE = 1.0;

export interface Dash extends InkBlob {
  text: '-' | '—';
}

/** When blob `b` is a dash, the word beside it on its line. */
function dashLine(image: GrayImage, b: InkBlob, typical: number, words: readonly OcrWord[]): OcrWord | undefined {
  const w = b.x1 - b.x0;
  // cheap tests on the blob's grid box first: most blobs are glyphs, far taller than a bar
  if (w < DASH_MIN_LENGTH * typical || w > DASH_MAX_LENGTH * typical || b.y1 - b.y0 > DASH_MAX_THICKNESS * typical + 2 * CELL) return undefined;
  // The bar's own rows: the dark pixels' extent inside the blob's cells, and its longest run.
  let top = -1;
  let bottom = -1;
  let longest = 0;
  for (let y = b.y0; y < b.y1; y++) {
    let run = 0;
    let dark = false;
    for (let x = b.x0; x < b.x1; x++) {
      if (image.data[y * image.width + x]! < DARK) {
        dark = true;
        if (++run > longest) longest = run;
      } else run = 0;
    }
    if (dark) {
      if (top < 0) top = y;
      bottom = y + 1;
    }
  }
  const thickness = bottom - top;
  if (top < 0 || thickness > DASH_MAX_THICKNESS * typical || longest < 2 * thickness || longest < w - 2 * CELL) return undefined;
  // Across the middle of its line's words (not an underline, not a rule between rows), and a
  // cell of its own: a dash inside running text is left to the text's reading.
  const cy = (top + bottom) / 2;
  const line = words.filter((word) => {
    const h = word.y1 - word.y0;
    return cy > word.y0 + 0.3 * h && cy < word.y1 - 0.2 * h;
  });
  const alone = line.every((word) => word.x1 <= b.x0 - DASH_CLEARANCE * typical || word.x0 >= b.x1 + DASH_CLEARANCE * typical);
  return alone ? line[0] : undefined;
}

export interface Strip {
  image: GrayImage;
  /** blob i sits at (pad, tops[i]) in the strip */
  tops: number[];
  pad: number;
}

/** The blobs stacked one per line, left-aligned, with white space around each. */
export function stackBlobs(page: GrayImage, blobs: readonly InkBlob[]): Strip {
  const heights = blobs.map((b) => b.y1 - b.y0);
  const pad = Math.max(16, Math.round(Math.max(...heights) * 0.6));
  const width = Math.max(...blobs.map((b) => b.x1 - b.x0)) + 2 * pad;
  const tops: number[] = [];
  let y = pad;
  for (const h of heights) {
    tops.push(y);
    y += h + pad;
  }
  const height = y;
  const data = new Uint8Array(width * height).fill(255);
  blobs.forEach((b, i) => {
    const top = tops[i]!;
    for (let r = 0; r < b.y1 - b.y0; r++) {
      const from = (b.y0 + r) * page.width + b.x0;
      data.set(page.data.subarray(from, from + (b.x1 - b.x0)), (top + r) * width + pad);
    }
  });
  return { image: { width, height, data }, tops, pad };
}

/** Words read from the strip, placed back on the page. */
export function wordsFromStrip(strip: Strip, blobs: readonly InkBlob[], words: readonly OcrWord[]): OcrWord[] {
  const out: OcrWord[] = [];
  for (const w of words) {
    const cy = (w.y0 + w.y1) / 2;
    const i = blobs.findIndex((b, k) => cy >= strip.tops[k]! - strip.pad / 2 && cy < strip.tops[k]! + (b.y1 - b.y0) + strip.pad / 2);
    if (i < 0) continue;
    const b = blobs[i]!;
    const dx = b.x0 - strip.pad;
    const dy = b.y0 - strip.tops[i]!;
    out.push({ ...w, x0: w.x0 + dx, x1: w.x1 + dx, y0: w.y0 + dy, y1: w.y1 + dy, line: `dropped.${i}` });
  }
  return out;
}

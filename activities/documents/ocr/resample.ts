// Pictures turned by a small angle (deskew.ts) or enlarged (low-resolution scans), resampled
// bicubically (Catmull-Rom): bilinear blurs small glyphs enough to change what tesseract reads
// (the jpn model's △ and kana). High-resolution scans are shrunk by averaging whole blocks.
import type { GrayImage } from './gray-image.js';

/**
 * Writes `count` pixels into `out` from `start`, read from `image` at (sx, sy), (sx + dx, sy + dy),
 * ...: bicubic between pixels. Points on paper, or outside the picture (beyond half a pixel from
 * its edge), are left as they are in `out`: paper.
 */
export function resampleRow(image: GrayImage, out: Uint8Array, start: number, count: number, sx: number, sy: number, dx: number, dy: number): void {
  const { width: W, height: H, data } = image;
  const wx = new Float64Array(4);
  const wy = new Float64Array(4);
  for (let n = 0; n < count; n++, sx += dx, sy += dy) {
    if (sx < -0.5 || sy < -0.5 || sx > W - 0.5 || sy > H - 0.5) continue;
    // truncation: the half pixel beyond an edge reads the edge pixel's column or row
    const x0 = sx | 0;
    const y0 = sy | 0;
    // Paper stays paper, most of a page: with the four nearest pixels white the outer taps'
    // weights are negative, so the sum comes to white or more.
    const i = y0 * W + x0;
    if (data[i] === 255 && data[i + 1] === 255 && data[i + W] === 255 && data[i + W + 1] === 255) continue;
    catmullRom(sx > x0 ? sx - x0 : 0, wx);
    catmullRom(sy > y0 ? sy - y0 : 0, wy);
    let sum = 0;
    for (let m = 0; m < 4; m++) {
      const row = Math.min(H - 1, Math.max(0, y0 - 1 + m)) * W;
      let line = 0;
      for (let k = 0; k < 4; k++) line += wx[k]! * data[row + Math.min(W - 1, Math.max(0, x0 - 1 + k))]!;
      sum += wy[m]! * line;
    }
    out[start + n] = sum < 0 ? 0 : sum > 255 ? 255 : sum + 0.5;
  }
}

/** Catmull-Rom weights of the four samples around a point `t` (0..1) past the second. */
function catmullRom(t: number, w: Float64Array): void {
  const t2 = t * t;
  const t3 = t2 * t;
  w[0] = (-t3 + 2 * t2 - t) / 2;
  w[1] = (3 * t3 - 5 * t2 + 2) / 2;
  w[2] = (-3 * t3 + 4 * t2 + t) / 2;
  w[3] = (t3 - t2) / 2;
}

/**
 * The picture turned clockwise by `degrees` about its centre, on a canvas grown to hold all of
 * it; the corners brought in are paper.
 */
export function rotateGray(image: GrayImage, degrees: number): GrayImage {
  const { width: W, height: H } = image;
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const width = Math.ceil(Math.abs(W * cos) + Math.abs(H * sin));
  const height = Math.ceil(Math.abs(H * cos) + Math.abs(W * sin));
  const out = new Uint8Array(width * height).fill(255);
  const cx = (W - 1) / 2;
  const cy = (H - 1) / 2;
  const ox = (width - 1) / 2;
  const oy = (height - 1) / 2;
  for (let y = 0; y < height; y++) {
    // the source point of (0, y): turned back by -degrees; along the row it moves by (cos, -sin)
    const dy = y - oy;
    resampleRow(image, out, y * width, width, -ox * cos + dy * sin + cx, ox * sin + dy * cos + cy, cos, -sin);
  }
  return { width, height, data: out };
}

/** The picture enlarged `factor` times (> 1), pixel centres kept in place. */
export function enlargeGray(image: GrayImage, factor: number): GrayImage {
  const width = Math.round(image.width * factor);
  const height = Math.round(image.height * factor);
  const out = new Uint8Array(width * height).fill(255);
  // the centre of output pixel x lies at source (x + 0.5) / factor - 0.5
  for (let y = 0; y < height; y++) resampleRow(image, out, y * width, width, 0.5 / factor - 0.5, (y + 0.5) / factor - 0.5, 1 / factor, 0);
  return { width, height, data: out };
}

/** The picture shrunk `k` times (an integer >= 2): each k x k block becomes its mean. */
export function shrinkGray(image: GrayImage, k: number): GrayImage {
  const { width: W, height: H, data } = image;
  const width = Math.ceil(W / k);
  const height = Math.ceil(H / k);
  const sums = new Uint32Array(width * height);
  const counts = new Uint32Array(width * height);
  for (let y = 0; y < H; y++) {
    const row = ((y / k) | 0) * width;
    for (let x = 0; x < W; x++) {
      const o = row + ((x / k) | 0);
      sums[o]! += data[y * W + x]!;
      counts[o]!++;
    }
  }
  const out = new Uint8Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(sums[i]! / counts[i]!);
  return { width, height, data: out };
}

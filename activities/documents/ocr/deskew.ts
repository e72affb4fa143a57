// Scans and photos come in slightly askew. One degree is enough to break a table: across an A4
// page at 300 dpi a line of text drifts 40 pixels, a line's height, so rows run into each other
// and columns lean (`npm run eval -- DIR --skew 1`). The angle is found from the page's ink:
// turned by the right angle, the lines of text and the rules fall into few rows (and the column
// edges into few columns) of the ink's projection, so the sum of its squared counts peaks there.
// The picture is then turned back, before rules are looked for and tesseract reads it.
import { CELL, darkPerCell, type GrayImage } from './gray-image.js';

// Scanners and phone photos of a page lie within this many degrees of upright; larger turns
// are quarter turns, found by orientation detection (ocr-page.ts).
const MAX_SKEW = 8;
const COARSE_STEP = 0.2;
const FINE_STEP = 0.02;
// Below this a line drifts at most a few pixels across the page: the picture is left as it is.
export const MIN_SKEW = 0.1;
// The projection at the best angle must beat the upright one by this much: pages of pictures or
// of very little text have no angle that stands out.
const MIN_GAIN = 1.05;
// Fewer inked squares than this: too little text to tell.
const MIN_POINTS = 200;
// The searches look at this many inked squares at most (an even spread of them).
const COARSE_POINTS = 10_000;
const FINE_POINTS = 40_000;

interface InkPoints {
  xs: Float64Array;
  ys: Float64Array;
  width: number;
  height: number;
}

/** Centres of the CELL-sized squares holding ink, in squares. */
function inkPoints(image: GrayImage): InkPoints {
  const ink = darkPerCell(image);
  const gw = Math.ceil(image.width / CELL);
  const gh = Math.ceil(image.height / CELL);
  // A square with a single dark pixel is speckle or an edge.
  let n = 0;
  for (let i = 0; i < ink.length; i++) if (ink[i]! > 1) n++;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < ink.length; i++) {
    if (ink[i]! <= 1) continue;
    xs[k] = (i % gw) + 0.5;
    ys[k++] = ((i / gw) | 0) + 0.5;
  }
  return { xs, ys, width: gw, height: gh };
}

/**
 * How sharply the ink falls into rows and columns when the page is turned back by `degrees`
 * (clockwise): the sums of squared counts of its row and column projections. Small angles are
 * taken as shears (a row of text turned by a runs along y = x·tan a + c).
 */
function sharpness(points: InkPoints, degrees: number, stride: number): number {
  const t = Math.tan((degrees * Math.PI) / 180);
  const { xs, ys, width, height } = points;
  const pad = Math.ceil(Math.abs(t) * Math.max(width, height)) + 1;
  const rows = new Uint32Array(height + 2 * pad);
  const cols = new Uint32Array(width + 2 * pad);
  for (let i = 0; i < xs.length; i += stride) {
    const x = xs[i]!;
    const y = ys[i]!;
    rows[(y - x * t + pad) | 0]!++;
    cols[(x + y * t + pad) | 0]!++;
  }
  let sum = 0;
  for (const c of rows) sum += c * c;
  for (const c of cols) sum += c * c;
  return sum;
}

function bestAngle(points: InkPoints, from: number, to: number, step: number, stride: number): { degrees: number; score: number } {
  let best = { degrees: 0, score: -1 };
  for (let i = 0; from + i * step <= to + 1e-9; i++) {
    const degrees = from + i * step;
    const score = sharpness(points, degrees, stride);
    // ties go to the angle nearest upright
    if (score > best.score || (score === best.score && Math.abs(degrees) < Math.abs(best.degrees))) best = { degrees, score };
  }
  return best;
}

/** Clockwise degrees the page's content is turned by (0 when upright or when it cannot tell). */
export function estimateSkew(image: GrayImage): number {
  const points = inkPoints(image);
  const n = points.xs.length;
  if (n < MIN_POINTS) return 0;
  const coarse = bestAngle(points, -MAX_SKEW, MAX_SKEW, COARSE_STEP, Math.max(1, Math.floor(n / COARSE_POINTS)));
  const stride = Math.max(1, Math.floor(n / FINE_POINTS));
  const fine = bestAngle(points, coarse.degrees - COARSE_STEP, coarse.degrees + COARSE_STEP, FINE_STEP, stride);
  const degrees = Math.round(fine.degrees * 100) / 100;
  if (Math.abs(degrees) < MIN_SKEW) return 0;
  return fine.score >= MIN_GAIN * sharpness(points, 0, stride) ? degrees : 0;
}

/**
 * The picture turned clockwise by `degrees` about its centre, on a canvas grown to hold all of
 * it; the corners brought in are paper. Bicubic (Catmull-Rom): bilinear blurs small glyphs enough
 * to change what tesseract reads (the jpn model's △ and kana).
 */
export function rotateGray(image: GrayImage, degrees: number): GrayImage {
  const { width: W, height: H, data } = image;
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
  const wx = new Float64Array(4);
  const wy = new Float64Array(4);
  for (let y = 0; y < height; y++) {
    // the source point of (0, y): turned back by -degrees; along the row it moves by (cos, -sin)
    const dy = y - oy;
    let sx = -ox * cos + dy * sin + cx;
    let sy = ox * sin + dy * cos + cy;
    const row = y * width;
    for (let x = 0; x < width; x++, sx += cos, sy -= sin) {
      // (a quarter turn's sine and cosine are off by 1e-16: points on the edge stay on it)
      if (sx < -EDGE || sy < -EDGE || sx > W - 1 + EDGE || sy > H - 1 + EDGE) continue;
      const x0 = Math.min(W - 1, Math.max(0, Math.floor(sx)));
      const y0 = Math.min(H - 1, Math.max(0, Math.floor(sy)));
      // Paper stays paper, most of a page: with the four nearest pixels white the outer taps'
      // weights are negative, so the sum comes to white or more.
      const i = y0 * W + x0;
      if (data[i] === 255 && data[i + 1] === 255 && data[i + W] === 255 && data[i + W + 1] === 255) continue;
      catmullRom(sx - x0, wx);
      catmullRom(sy - y0, wy);
      let sum = 0;
      for (let m = 0; m < 4; m++) {
        const yy = Math.min(H - 1, Math.max(0, y0 - 1 + m)) * W;
        let line = 0;
        for (let k = 0; k < 4; k++) line += wx[k]! * data[yy + Math.min(W - 1, Math.max(0, x0 - 1 + k))]!;
        sum += wy[m]! * line;
      }
      out[row + x] = sum < 0 ? 0 : sum > 255 ? 255 : sum + 0.5;
    }
  }
  return { width, height, data: out };
}

const EDGE = 1e-9;

/** Catmull-Rom weights of the four samples around a point `t` (0..1) past the second. */
function catmullRom(t: number, w: Float64Array): void {
  const t2 = t * t;
  const t3 = t2 * t;
  w[0] = (-t3 + 2 * t2 - t) / 2;
  w[1] = (3 * t3 - 5 * t2 + 2) / 2;
  w[2] = (-3 * t3 + 4 * t2 + t) / 2;
  w[3] = (t3 - t2) / 2;
}

/** The picture straightened, and the clockwise degrees its content was turned by (0: as it was). */
export function straighten(image: GrayImage): { image: GrayImage; skew: number } {
  const skew = estimateSkew(image);
  return skew === 0 ? { image, skew } : { image: rotateGray(image, -skew), skew };
}

// Scans and photos come in slightly askew. One degree is enough to break a table: across an A4
// page at 300 dpi a line of text drifts 40 pixels, a line's height, so rows run into each other
// and columns lean (`npm run eval -- DIR --skew 1`). The angle is found from the page's ink:
// turned by the right angle, the lines of text and the rules fall into few rows (and the column
// edges into few columns) of the ink's projection, so the sum of its squared counts peaks there.
// The picture is then turned back, before rules are looked for and tesseract reads it.
import { CELL, darkPerCell, type GrayImage } from './gray-image.js';
import { rotateGray } from './resample.js';

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

/** The picture straightened, and the clockwise degrees its content was turned by (0: as it was). */
export function straighten(image: GrayImage): { image: GrayImage; skew: number } {
  const skew = estimateSkew(image);
  return skew === 0 ? { image, skew } : { image: rotateGray(image, -skew), skew };
}

// A photo of a page lying on a desk (or a scan with the scanner's dark lid around the page): the
// desk's grain is read as words (gibberish rows and tables around the real one, and a page that
// takes tesseract ten times as long), and the camera's tilt makes the page a trapezoid whose lines
// no single turn straightens. The page is found as the bright four-sided shape standing on a
// darker background that reaches the picture's edges, cut out, and squared up (the perspective
// undone). Pictures without such a background are returned as they are.
import type { GrayImage } from './gray-image.js';
import { resampleRow } from './resample.js';

// The page is looked for in a coarse view: cells of about 1/COARSE of the picture's longer side.
const COARSE = 400;
// The background reaches at least half of this many of the picture's four sides (a dark band
// printed across the top of a page reaches one side, and only the ends of two others).
const MIN_SIDES = 3;
const SIDE_SHARE = 0.5;
// The page: at least this share of the picture (a receipt photographed whole), at least this much
// brighter than the background, and close to a four-sided shape (a page, not a blot of light).
const MIN_PAGE_SHARE = 0.1;
const MIN_CONTRAST = 40;
const MIN_FILL = 0.85;
// The page is cut this many cells inside the edge found (edge cells are half desk).
const INSET_CELLS = 1.5;
// Along an output row, the source is sampled in straight runs this long (a perspective bends
// the spacing of samples, not the line they lie on).
const RUN = 32;

// Letter and A4 sheets, either way up: their sides' ratio, and their area in square inches.
const SHEET_RATIOS = [1.2, 1.5];
const SHEET_AREA = 95;
// Resolutions believed of a picture sized as a sheet.
const SHEET_DPI = [100, 1200];

export type Point = [number, number];

/**
 * The resolution of a picture proportioned like a Letter or A4 sheet (a page photographed and
 * cut out, a scan that states no resolution): its area over a sheet's. Undefined otherwise.
 */
export function sheetResolution({ width, height }: GrayImage): number | undefined {
  const ratio = Math.max(width, height) / Math.min(width, height);
  if (ratio < SHEET_RATIOS[0]! || ratio > SHEET_RATIOS[1]!) return undefined;
  const dpi = Math.sqrt((width * height) / SHEET_AREA);
  return dpi >= SHEET_DPI[0]! && dpi <= SHEET_DPI[1]! ? dpi : undefined;
}

interface Coarse {
  width: number;
  height: number;
  step: number;
  /** each cell's mean grey (every other pixel looked at) */
  cells: Uint8Array;
}

/** The picture with only the page, squared up; the picture itself when no page stands out. */
export function cutOutPaper(image: GrayImage): GrayImage {
  // A first look along the picture's edges, all a rendered or scanned page costs: the background
  // is darker than any page stands out against.
  const { width, height, data } = image;
  if (sidesCovered(width, height, (i) => data[i]! < 255 - MIN_CONTRAST, 2) < MIN_SIDES) return image;
  const coarse = coarseView(image);
  const threshold = otsu(coarse.cells);
  const background = backgroundCells(coarse, threshold);
  if (sidesCovered(coarse.width, coarse.height, (i) => background[i] === 1) < MIN_SIDES) return image;
  const page = largestPageRegion(coarse, background);
  if (page.length < MIN_PAGE_SHARE * coarse.cells.length) return image;
  if (meanBright(coarse, page, threshold) - meanOf(coarse, background) < MIN_CONTRAST) return image;
  const corners = extremeCorners(coarse, page);
  const area = quadArea(corners);
  if (!isConvex(corners) || page.length < MIN_FILL * area) return image;
  const quad = inset(corners, INSET_CELLS).map(([x, y]): Point => [x * coarse.step, y * coarse.step]);
  return squareUp(image, quad);
}

/** How many sides of a width x height grid have at least SIDE_SHARE of their points (every `step`th) `covered`. */
function sidesCovered(width: number, height: number, covered: (i: number) => boolean, step = 1): number {
  const share = (count: number, at: (k: number) => number): number => {
    let n = 0;
    for (let k = 0; k < count; k += step) if (covered(at(k))) n++;
    return n / Math.ceil(count / step);
  };
  const sides = [share(width, (x) => x), share(width, (x) => (height - 1) * width + x), share(height, (y) => y * width), share(height, (y) => y * width + width - 1)];
  return sides.filter((s) => s >= SIDE_SHARE).length;
}

function coarseView({ width, height, data }: GrayImage): Coarse {
  const step = Math.max(2, Math.ceil(Math.max(width, height) / COARSE));
  const gw = Math.ceil(width / step);
  const gh = Math.ceil(height / step);
  const sums = new Uint32Array(gw * gh);
  const counts = new Uint32Array(gw * gh);
  for (let y = 0; y < height; y += 2) {
    const row = y * width;
    const cellRow = ((y / step) | 0) * gw;
    for (let x = 0; x < width; x += 2) {
      const c = cellRow + ((x / step) | 0);
      sums[c]! += data[row + x]!;
      counts[c]!++;
    }
  }
  const cells = new Uint8Array(gw * gh);
  // A last column or row of cells cut short to one odd pixel is looked at nowhere: it takes its
  // neighbour's grey (the first column and row always hold pixels looked at).
  for (let i = 0; i < cells.length; i++) {
    if (counts[i]) cells[i] = Math.round(sums[i]! / counts[i]!);
    else cells[i] = i % gw > 0 && counts[i - 1] ? cells[i - 1]! : cells[i - gw]!;
  }
  return { width: gw, height: gh, step, cells };
}

/** Otsu's threshold: the grey splitting the values into two classes of least spread. */
function otsu(values: Uint8Array): number {
  const histogram = new Float64Array(256);
  for (const v of values) histogram[v]!++;
  let total = 0;
  for (let v = 0; v < 256; v++) total += v * histogram[v]!;
  let below = 0;
  let belowSum = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    below += histogram[t]!;
    belowSum += t * histogram[t]!;
    const above = values.length - below;
    if (below === 0 || above === 0) continue;
    const between = below * above * (belowSum / below - (total - belowSum) / above) ** 2;
    if (between > best) [best, threshold] = [between, t + 1];
  }
  return threshold;
}

/** Cells darker than `threshold` reached from the picture's edges through such cells. */
function backgroundCells({ width, height, cells }: Coarse, threshold: number): Uint8Array {
  const seen = new Uint8Array(cells.length);
  const stack: number[] = [];
  const visit = (i: number): void => {
    if (!seen[i] && cells[i]! < threshold) {
      seen[i] = 1;
      stack.push(i);
    }
  };
  for (let x = 0; x < width; x++) {
    visit(x);
    visit((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    visit(y * width);
    visit(y * width + width - 1);
  }
  while (stack.length) {
    const i = stack.pop()!;
    const x = i % width;
    if (x > 0) visit(i - 1);
    if (x < width - 1) visit(i + 1);
    if (i >= width) visit(i - width);
    if (i + width < cells.length) visit(i + width);
  }
  return seen;
}

/** The largest connected region of cells outside the background: the page, with its ink. */
function largestPageRegion({ width, cells }: Coarse, background: Uint8Array): number[] {
  const label = new Uint8Array(cells.length);
  let best: number[] = [];
  for (let start = 0; start < cells.length; start++) {
    if (background[start] || label[start]) continue;
    const region: number[] = [start];
    label[start] = 1;
    for (let k = 0; k < region.length; k++) {
      const i = region[k]!;
      const x = i % width;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j >= 0 && j < cells.length && !background[j] && !label[j]) {
          label[j] = 1;
          region.push(j);
        }
      }
    }
    if (region.length > best.length) best = region;
  }
  return best;
}

function meanBright({ cells }: Coarse, region: readonly number[], threshold: number): number {
  let sum = 0;
  let n = 0;
  for (const i of region) {
    if (cells[i]! >= threshold) {
      sum += cells[i]!;
      n++;
    }
  }
  return n ? sum / n : 0;
}

function meanOf({ cells }: Coarse, mask: Uint8Array): number {
  let sum = 0;
  let n = 0;
  mask.forEach((m, i) => {
    if (m) {
      sum += cells[i]!;
      n++;
    }
  });
  return n ? sum / n : 255;
}

/** The region's corners (cell edges, clockwise from top left): its extremes along the diagonals. */
function extremeCorners({ width }: Coarse, region: readonly number[]): Point[] {
  const best = [Infinity, -Infinity, -Infinity, Infinity];
  const corners: Point[] = [
    [0, 0],
    [0, 0],
    [0, 0],
    [0, 0],
  ];
  for (const i of region) {
    const x = (i % width) + 0.5;
    const y = Math.floor(i / width) + 0.5;
    const sum = x + y;
    const diff = x - y;
    if (sum < best[0]!) [best[0], corners[0]] = [sum, [x - 0.5, y - 0.5]];
    if (diff > best[1]!) [best[1], corners[1]] = [diff, [x + 0.5, y - 0.5]];
    if (sum > best[2]!) [best[2], corners[2]] = [sum, [x + 0.5, y + 0.5]];
    if (diff < best[3]!) [best[3], corners[3]] = [diff, [x - 0.5, y + 0.5]];
  }
  return corners;
}

function quadArea(q: readonly Point[]): number {
  let twice = 0;
  for (let k = 0; k < 4; k++) {
    const [x0, y0] = q[k]!;
    const [x1, y1] = q[(k + 1) % 4]!;
    twice += x0 * y1 - x1 * y0;
  }
  return Math.abs(twice) / 2;
}

function isConvex(q: readonly Point[]): boolean {
  const turns = q.map(([x0, y0], k) => {
    const [x1, y1] = q[(k + 1) % 4]!;
    const [x2, y2] = q[(k + 2) % 4]!;
    return Math.sign((x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1));
  });
  return turns.every((t) => t > 0);
}

/** The corners moved `by` towards the quad's centre along its diagonals' directions. */
function inset(q: readonly Point[], by: number): Point[] {
  const cx = q.reduce((s, p) => s + p[0], 0) / 4;
  const cy = q.reduce((s, p) => s + p[1], 0) / 4;
  return q.map(([x, y]) => {
    const d = Math.hypot(cx - x, cy - y) || 1;
    return [x + ((cx - x) * by * Math.SQRT2) / d, y + ((cy - y) * by * Math.SQRT2) / d];
  });
}

/** A projective map of the plane, row by row (the last entry 1). */
export type Projective = readonly number[];

/** The projective map taking the unit square's corners (clockwise from (0,0)) to `q`'s. */
export function squareToQuad(q: readonly Point[]): Projective {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = q as [Point, Point, Point, Point];
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  const det = (x1 - x2) * (y3 - y2) - (x3 - x2) * (y1 - y2);
  const g = (sx * (y3 - y2) - (x3 - x2) * sy) / det;
  const h = ((x1 - x2) * sy - sx * (y1 - y2)) / det;
  return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, 1];
}

/** The inverse map (adjugate over determinant, scaled so its last entry is 1). */
export function invertProjective(m: Projective): Projective {
  const [a, b, c, d, e, f, g, h, i] = m as [number, number, number, number, number, number, number, number, number];
  const adj = [e * i - f * h, c * h - b * i, b * f - c * e, f * g - d * i, a * i - c * g, c * d - a * f, d * h - e * g, b * g - a * h, a * e - b * d];
  return adj.map((v) => v / adj[8]!);
}

export function project(m: Projective, u: number, v: number): Point {
  const w = m[6]! * u + m[7]! * v + m[8]!;
  return [(m[0]! * u + m[1]! * v + m[2]!) / w, (m[3]! * u + m[4]! * v + m[5]!) / w];
}

/** The quad `q` (picture pixels, clockwise from top left) resampled into an upright rectangle. */
function squareUp(image: GrayImage, q: readonly Point[]): GrayImage {
  const side = (a: number, b: number): number => Math.hypot(q[a]![0] - q[b]![0], q[a]![1] - q[b]![1]);
  const width = Math.max(1, Math.round((side(0, 1) + side(3, 2)) / 2));
  const height = Math.max(1, Math.round((side(0, 3) + side(1, 2)) / 2));
  const map = squareToQuad(q);
  const out = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height; y++) {
    const v = (y + 0.5) / height;
    for (let x = 0; x < width; x += RUN) {
      const count = Math.min(RUN, width - x);
      // pixel centres: picture coordinate c lies at index c - 0.5
      const [ax, ay] = project(map, (x + 0.5) / width, v);
      const [bx, by] = project(map, (x + count + 0.5) / width, v);
      resampleRow(image, out, y * width + x, count, ax - 0.5, ay - 0.5, (bx - ax) / count, (by - ay) / count);
    }
  }
  return { width, height, data: out };
}

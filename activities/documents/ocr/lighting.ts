// Uneven light: a photo or a scan whose paper darkens towards one side (a shadow, a curled page).
// Every reader here takes ink to be what is darker than fixed greys, so paper gone grey reads as
// ink: rules are found in it, it is cleared as shading, and tesseract loses the text in it
// (`npm run eval` with the paper darkened to 60% across the page: 0.33). The paper's brightness is
// taken, region by region, as the brightest pixels around (text never fills a region), and each
// pixel is divided by it.
import { DARK, type GrayImage } from './gray-image.js';

// Regions are BLOCK pixels square; the paper's brightness at a block is the brightest pixel within
// REACH blocks of it (at 300 dpi, a window half an inch wide: taller than lines of text).
const BLOCK = 32;
const REACH = 2;
// Paper at least this bright everywhere is left as it is: the page is evenly lit.
const EVEN_PAPER = 224;
// Darker than this is no paper (a photo, a black band): it is not brightened further.
const MIN_PAPER = 64;

/** The brightest pixel of each BLOCK x BLOCK square (every other row and column looked at). */
function blockMaxima({ width, height, data }: GrayImage, gw: number, gh: number): Uint8Array {
  const max = new Uint8Array(gw * gh);
  for (let y = 0; y < height; y += 2) {
    const row = y * width;
    const blocks = ((y / BLOCK) | 0) * gw;
    for (let x = 0; x < width; x += 2) {
      const v = data[row + x]!;
      const g = blocks + ((x / BLOCK) | 0);
      if (v > max[g]!) max[g] = v;
    }
  }
  return max;
}

/** The paper's brightness at each block: the brightest block maximum within REACH of it. */
function paperBrightness(maxima: Uint8Array, gw: number, gh: number): Float64Array {
  const paper = new Float64Array(gw * gh);
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      let best = 0;
      for (let y = Math.max(0, gy - REACH); y <= Math.min(gh - 1, gy + REACH); y++) {
        for (let x = Math.max(0, gx - REACH); x <= Math.min(gw - 1, gx + REACH); x++) best = Math.max(best, maxima[y * gw + x]!);
      }
      paper[gy * gw + gx] = Math.max(MIN_PAPER, best);
    }
  }
  return paper;
}

/** The picture with its paper brought to white where the light was uneven; as it is otherwise. */
export function evenLight(image: GrayImage): GrayImage {
  const { width, height, data } = image;
  const gw = Math.ceil(width / BLOCK);
  const gh = Math.ceil(height / BLOCK);
  const paper = paperBrightness(blockMaxima(image, gw, gh), gw, gh);
  if (paper.every((p) => p >= EVEN_PAPER)) return image;
  const out = new Uint8Array(width * height);
  // The paper between block centres is interpolated (bilinear), so no block edges show.
  for (let y = 0; y < height; y++) {
    const fy = Math.min(gh - 1, Math.max(0, (y - BLOCK / 2) / BLOCK));
    const y0 = Math.floor(fy);
    const y1 = Math.min(gh - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(gw - 1, Math.max(0, (x - BLOCK / 2) / BLOCK));
      const x0 = Math.floor(fx);
      const x1 = Math.min(gw - 1, x0 + 1);
      const tx = fx - x0;
      const top = paper[y0 * gw + x0]! + (paper[y0 * gw + x1]! - paper[y0 * gw + x0]!) * tx;
      const bottom = paper[y1 * gw + x0]! + (paper[y1 * gw + x1]! - paper[y1 * gw + x0]!) * tx;
      const v = (data[y * width + x]! * 255) / (top + (bottom - top) * ty);
      out[y * width + x] = v >= 255 ? 255 : v + 0.5;
    }
  }
  return { width, height, data: out };
}

// Grainy paper (recycled paper, a photo's sensor noise, JPEG blocks): greys scattered around the
// paper's level. tesseract binarises each band it is handed on its own (bands.ts), and a band of
// bare grainy paper splits at the middle of its grain: a page of gibberish words (a noisy scan
// at 200 dpi: 1,380 words at 23% confidence; plain tesseract, reading the page whole, none).
// Greys within GRAIN_SPREAD standard deviations of the paper's level are paper: they are made
// white (never down to halfway between the paper and DARK: light grey text stays), except in
// shaded squares (most of their greys other than ink clearly darker than the paper), which stay
// as they were for the shading reader (raster-rulings.ts).
const GRAIN_SPREAD = 4;
const SHADED = 1.5;
const SQUARE = 8;
// Paper darker than this (a photo's background, a dark page) is left alone; so is white paper
// whose grain is within this many greys (a clean scan, a rendered page). Grey paper is made white
// however fine its grain (a photo's paper, its grain smoothed by JPEG: tesseract splits a band of
// bare 235 +- 2 into specks), its grain taken as at least MIN_GRAIN.
const MIN_GRAINY_PAPER = 160;
const CLEAN_GRAIN = 1.5;
const MIN_GRAIN = 1;
const PEAK_WIDTH = 4;

/** The picture with its grainy paper made white; as it is when the paper is clean. */
export function whitenPaper(image: GrayImage): GrayImage {
  const { width, height, data } = image;
  const histogram = new Float64Array(256);
  for (let i = 0; i < data.length; i += 3) histogram[data[i]!]!++;
  // The paper: the commonest grey (shading and ink cover less of a page), its grain measured on
  // its lighter side only (shading and ink lie on its darker side).
  const paper = commonestGrey(histogram);
  const grain = Math.max(MIN_GRAIN, 1.4826 * median(histogram, paper, (v) => v - paper));
  if (paper < MIN_GRAINY_PAPER || (paper === 255 && grain < CLEAN_GRAIN)) return image;
  const white = Math.max(paper - GRAIN_SPREAD * grain, (paper + DARK) / 2);
  const shaded = paper - SHADED * grain;
  const out = Uint8Array.from(data);
  for (let y0 = 0; y0 < height; y0 += SQUARE) {
    const y1 = Math.min(height, y0 + SQUARE);
    for (let x0 = 0; x0 < width; x0 += SQUARE) {
      const x1 = Math.min(width, x0 + SQUARE);
      if (onShading(data, width, x0, x1, y0, y1, shaded)) continue;
      for (let y = y0; y < y1; y++) {
        const row = y * width;
        for (let x = x0; x < x1; x++) if (out[row + x]! >= white) out[row + x] = 255;
      }
    }
  }
  return { width, height, data: out };
}

/**
 * Whether a square lies on shading: fewer than a quarter of its greys other than ink reach the
 * `shaded` level. A quarter, not the mean: the edges of a glyph, greys between ink and paper, would
 * pull a letter's squares below it, leaving each letter in a box of grainy paper, and tesseract
 * reads the boxes' edges as strokes (a photographed page of small figures lost a third of them).
 */
function onShading(data: Uint8Array, width: number, x0: number, x1: number, y0: number, y1: number, shaded: number): boolean {
  let other = 0;
  let bright = 0;
  for (let y = y0; y < y1; y++) {
    const row = y * width;
    for (let x = x0; x < x1; x++) {
      const v = data[row + x]!;
      if (v >= DARK) {
        other++;
        if (v >= shaded) bright++;
      }
    }
  }
  return bright * 4 < other || other === 0;
}

/** The peak of the histogram (from DARK up), smoothed over PEAK_WIDTH greys either side (grain scatters it). */
function commonestGrey(histogram: Float64Array): number {
  let best = 0;
  let peak = -1;
  for (let v = DARK; v < 256; v++) {
    let sum = 0;
    for (let k = Math.max(0, v - PEAK_WIDTH); k <= Math.min(255, v + PEAK_WIDTH); k++) sum += histogram[k]!;
    if (sum > peak) [best, peak] = [v, sum];
  }
  // The window's own commonest grey: 255 for clean paper, whose window edges tie.
  let top = best;
  for (let v = Math.max(DARK, best - PEAK_WIDTH); v <= Math.min(255, best + PEAK_WIDTH); v++) if (histogram[v]! > histogram[top]!) top = v;
  return top;
}

/** The median of f(v) over the histogram's greys from `from` up. */
function median(histogram: Float64Array, from: number, f: (v: number) => number): number {
  const counts = new Float64Array(256);
  let total = 0;
  for (let v = from; v < 256; v++) {
    counts[f(v)]! += histogram[v]!;
    total += histogram[v]!;
  }
  let seen = 0;
  for (let k = 0; k < 256; k++) {
    seen += counts[k]!;
    if (seen * 2 >= total) return k;
  }
  return 255;
}

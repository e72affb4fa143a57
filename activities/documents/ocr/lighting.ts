// Uneven light: a photo or a scan whose paper darkens towards one side (a shadow, a curled page).
// Every reader here takes ink to be what is darker than fixed greys, so paper gone grey reads as
// ink: rules are found in it, it is cleared as shading, and tesseract loses the text in it
// (`npm run eval` with the paper darkened to 60% across the page: 0.33). The paper's brightness is
// taken, region by region, as the brightest pixels around (text never fills a region), and each
// pixel is divided by it.
import type { GrayImage } from './gray-image.js';

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

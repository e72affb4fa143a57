// Minus signs tesseract leaves off figures. A short bar set tight against a figure ("-4.3") is
// often not part of the word it returns ("4.3"): a negative amount would come out positive. The
// ink just left of each figure is looked at: a lone flat bar across the middle of the figure's
// height, with nothing above, below or beside it, is its minus sign.
import { DARK, type GrayImage } from './gray-image.js';
import type { OcrWord } from './tesseract.js';

const FIGURE = /^\d[\d.,]*%?$/u;
// Where the bar may be, in shares of the figure's height: this far left of it (an en dash set
// as a minus runs 0.72 of a figure's height in a book face, a hair from it), ...
const REACH = 1.2;
// ... its length (an em dash, 1.45, is no minus), ...
const MIN_LENGTH = 0.2;
const MAX_LENGTH = 0.9;
// ... its thickness, and the band across the middle of the figure it lies in.
const MAX_THICKNESS = 0.2;
const BAND_TOP = 0.3;
const BAND_BOTTOM = 0.8;

interface Bar {
  x0: number;
  x1: number;
}

/** The minus bar left of figure `w`, when there is one. */
function barLeftOf(image: GrayImage, w: OcrWord): Bar | undefined {
  const h = w.y1 - w.y0;
  const from = Math.max(0, Math.round(w.x0 - REACH * h));
  const to = Math.min(image.width, w.x0);
  if (to - from < 2 || h < 6) return undefined;
  let bar: Bar | undefined;
  let thickness = 0;
  for (let y = Math.max(0, w.y0); y < Math.min(image.height, w.y1); y++) {
    // this row's dark pixels in the window: their extent and whether they are one run
    let first = -1;
    let last = -1;
    let count = 0;
    for (let x = from; x < to; x++) {
      if (image.data[y * image.width + x]! >= DARK) continue;
      if (first < 0) first = x;
      last = x;
      count++;
    }
    if (first < 0) continue;
    const inBand = y >= w.y0 + BAND_TOP * h && y < w.y0 + BAND_BOTTOM * h;
    // ink outside the band, a row broken by more than a pixel, or ink running in from further
    // left is some other glyph: no lone bar here
    if (!inBand || last - first + 1 - count > 1 || first === from) return undefined;
    const row = { x0: first, x1: last + 1 };
    if (bar && (row.x0 > bar.x1 || row.x1 < bar.x0)) return undefined;
    bar = bar ? { x0: Math.min(bar.x0, row.x0), x1: Math.max(bar.x1, row.x1) } : row;
    thickness++;
  }
  if (!bar || thickness > MAX_THICKNESS * h) return undefined;
  const length = bar.x1 - bar.x0;
  if (length < MIN_LENGTH * h || length > MAX_LENGTH * h || length < 2 * thickness) return undefined;
  return bar;
}

// A dash tesseract did read before a figure, often as an em dash for a typeset en dash or minus.
const DASHED_FIGURE = /^[\u2013\u2014\u2015\u2212](?=\d[\d.,]*%?$)/u;

/**
 * `words` with the minus signs found left of their figures put back ("4.3" -> "-4.3"), and a
 * dash read before a figure written as the minus "-" ("—38" -> "-38") that number parsing reads.
 */
export function restoreMinusSigns(image: GrayImage, words: readonly OcrWord[]): OcrWord[] {
  return words.map((w) => {
    if (DASHED_FIGURE.test(w.text)) return { ...w, text: w.text.replace(DASHED_FIGURE, '-') };
    if (!FIGURE.test(w.text)) return w;
    // The window must be free of every other word: its ink is theirs otherwise.
    const h = w.y1 - w.y0;
    const windowLeft = w.x0 - REACH * h;
    if (words.some((o) => o !== w && o.x1 > windowLeft && o.x0 < w.x0 && o.y1 > w.y0 && o.y0 < w.y1)) return w;
    const bar = barLeftOf(image, w);
    return bar ? { ...w, text: `-${w.text}`, x0: bar.x0 } : w;
  });
}

// Marks tesseract leaves off figures, put back from the ink beside them.
//
// Minus signs: a short bar set tight against a figure ("-4.3") is often not part of the word it
// returns ("4.3"): a negative amount would come out positive. The ink just left of each figure is
// looked at: a lone flat bar across the middle of the figure's height, with nothing above, below
// or beside it, is its minus sign.
//
// Decimal points: ".53" (a share typed without its leading zero) comes back as "53", a value a
// hundred times too large. A lone dot on the baseline of a figure of bare digits, a narrow space
// left of it, with no ink before it along the baseline (dot leaders run up to figures;
// leaders.ts erased theirs), is its decimal point.
import { DARK, type GrayImage } from './gray-image.js';
import type { InkBlob } from './dropped-ink.js';
import type { OcrWord } from './tesseract.js';

const FIGURE = /^\d[\d.,]*%?$/u;
// Where the bar may be, in shares of the figure's height: this far left of it (an en dash set
// as a minus runs 0.72 of a figure's height in a book face, a hair from it), ...
const BAR_REACH = 1.2;
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
  const from = Math.max(0, Math.round(w.x0 - BAR_REACH * h));
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
    if (!FIGURE.test(w.text) || !clearLeftOf(words, w, BAR_REACH)) return w;
    const bar = barLeftOf(image, w);
    return bar ? { ...w, text: `-${w.text}`, x0: bar.x0 } : w;
  });
}

/** No other word within `reach` (share of its height) left of `w`: the ink there is not theirs. */
function clearLeftOf(words: readonly OcrWord[], w: OcrWord, reach: number): boolean {
  const left = w.x0 - reach * (w.y1 - w.y0);
  return !words.some((o) => o !== w && o.x1 > left && o.x0 < w.x0 && o.y1 > w.y0 && o.y0 < w.y1);
}

const BARE_DIGITS = /^\d+%?$/u;
// In shares of the figure's height: how far left of it the point may be, ...
const POINT_REACH = 0.6;
// ... the size of a point, ...
const MIN_DOT = 0.08;
const MAX_DOT = 0.3;
// ... how low it sits (its bottom within this share of the figure's foot), ...
const FOOT = 0.15;
// ... and how far left of it the baseline must be clear.
const CLEAR = 1.0;

/** The extent of the dark pixels in a box of the image, or undefined when there are none. */
function inkIn(image: GrayImage, x0: number, y0: number, x1: number, y1: number): InkBlob | undefined {
  let ink: InkBlob | undefined;
  for (let y = Math.max(0, y0); y < Math.min(image.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(image.width, x1); x++) {
      if (image.data[y * image.width + x]! >= DARK) continue;
      ink = ink ? { x0: Math.min(ink.x0, x), y0: Math.min(ink.y0, y), x1: Math.max(ink.x1, x + 1), y1: Math.max(ink.y1, y + 1) } : { x0: x, y0: y, x1: x + 1, y1: y + 1 };
    }
  }
  return ink;
}

/** The decimal point left of figure `w`, when there is one. */
function pointLeftOf(image: GrayImage, w: OcrWord): InkBlob | undefined {
  const h = w.y1 - w.y0;
  if (h < 8) return undefined;
  const from = Math.round(w.x0 - POINT_REACH * h);
  const dot = inkIn(image, from, Math.round(w.y0 - 0.2 * h), w.x0, Math.round(w.y1 + 0.2 * h));
  if (!dot || dot.x0 === Math.max(0, from)) return undefined;
  const [width, height] = [dot.x1 - dot.x0, dot.y1 - dot.y0];
  if (width < MIN_DOT * h || height < MIN_DOT * h || width > MAX_DOT * h || height > MAX_DOT * h) return undefined;
  if (Math.abs(dot.y1 - w.y1) > FOOT * h) return undefined;
  // Nothing before it along the baseline: no leader, no other glyph.
  return inkIn(image, Math.round(dot.x0 - CLEAR * h), dot.y0, dot.x0, dot.y1) ? undefined : dot;
}

/** `words` with the decimal points found left of their figures put back ("53" -> ".53"). */
export function restoreDecimalPoints(image: GrayImage, words: readonly OcrWord[]): OcrWord[] {
  return words.map((w) => {
    if (!BARE_DIGITS.test(w.text) || !clearLeftOf(words, w, POINT_REACH + CLEAR)) return w;
    const point = pointLeftOf(image, w);
    return point ? { ...w, text: `.${w.text}`, x0: point.x0 } : w;
  });
}

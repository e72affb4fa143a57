// A picture cut into horizontal bands along blank rows, for tesseract to read as the pages of one
// run (a list of files: its model loads once).
//
// Why: tesseract lists the words of a sparse-text reading (psm 11, tsv) with an iterator that,
// at every line, walks the page's blocks again from the first, comparing positions by walking
// the block list too; psm 11 makes nearly every line a block of its own. Listing a page of N
// lines therefore grows with about N³: a table page of 425 lines took 4.5 s CPU, a third of it
// in that walk, and 2.8-3.0 s read as eight bands of an inch, with the same words. A cut falls
// only in a run of rows with no ink, so no line of text is split.
import { DARK, type GrayImage } from './gray-image.js';

export interface Band {
  /** first row */
  top: number;
  /** row after the last */
  bottom: number;
}

// Bands about this tall; shorter ones saved no more on the page above (K=12, 16 against 8).
export const BAND_INCHES = 1;
// A cut is looked for this share of a band's height either side of where it would fall.
const SEARCH_SHARE = 0.25;
// in a run of blank rows at least this share of a band's height (3 rows at 300 dpi): a row of a
// line of text can be blank too (between the dots and stems of "iii")
const MIN_GAP_SHARE = 0.01;

/** Whether row `y` has no pixel darker than DARK: four bytes at a time, their top bits say. */
function blankRow({ width, data }: GrayImage, y: number): boolean {
  const row = y * width;
  const view = new DataView(data.buffer, data.byteOffset + row, width);
  const whole = width - (width % 4);
  for (let x = 0; x < whole; x += 4) if ((~view.getUint32(x, true) & 0x80808080) !== 0) return false;
  for (let x = whole; x < width; x++) if (data[row + x]! < DARK) return false;
  return true;
}

/** The middle of the longest run of at least `minRun` blank rows in [from, to), if there is one. */
function blankCut(image: GrayImage, from: number, to: number, minRun: number): number | undefined {
  let best: { start: number; length: number } | undefined;
  let start = -1;
  for (let y = from; y <= to; y++) {
    if (y < to && blankRow(image, y)) {
      if (start < 0) start = y;
      continue;
    }
    if (start >= 0 && y - start >= minRun && (!best || y - start > best.length)) best = { start, length: y - start };
    start = -1;
  }
  return best && best.start + Math.floor(best.length / 2);
}

/**
 * Bands of about `height` rows covering the picture top to bottom, each cut in a blank run of
 * rows; one band (the whole picture) when it is under one and a half bands tall or has no
 * blank rows where cuts would fall.
 */
export function blankRowBands(image: GrayImage, height: number): Band[] {
  const bands: Band[] = [];
  const reach = Math.floor(height * SEARCH_SHARE);
  const minRun = Math.max(2, Math.round(height * MIN_GAP_SHARE));
  let top = 0;
  // the last band is at least half a band tall
  for (let target = height; target + height / 2 <= image.height; target += height) {
    if (target - reach <= top) continue;
    const cut = blankCut(image, target - reach, Math.min(image.height, target + reach), minRun);
    if (cut === undefined || cut <= top) continue;
    bands.push({ top, bottom: cut });
    top = cut;
  }
  bands.push({ top, bottom: image.height });
  return bands;
}

/** Band `band` of the picture as its own picture, sharing its pixels. */
export function bandImage(image: GrayImage, band: Band): GrayImage {
  const { width, data } = image;
  return { width, height: band.bottom - band.top, data: data.subarray(band.top * width, band.bottom * width) };
}

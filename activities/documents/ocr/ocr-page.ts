// One picture -> page geometry in points, upright: ruling lines found in its pixels (then erased
// so that tesseract reads the text between them cleanly) and tesseract's words.
import { join } from 'node:path';
import type { PageGeometry } from '../layout/geometry.js';
import type { GrayImage } from './gray-image.js';
import { halfSize, rotateGray, writePgm } from './gray-image.js';
import { uncoveredInk, stackBlobs, wordsFromStrip } from './dropped-ink.js';
import { ocrGeometry, readingTurns } from './ocr-geometry.js';
import { eraseRules, findPixelRules, rulingsOfPixelRules } from './raster-rulings.js';
import { detectRotation, meanConfidence, recognize, type OcrWord } from './tesseract.js';
import { rm } from 'node:fs/promises';

// Below this mean word confidence the page is probably turned: sparse-text reading assumes
// upright text.
const DOUBTFUL_CONFIDENCE = 60;

export interface OcrSource {
  /** The picture as a file tesseract can read; when absent, `gray` is written out for it. */
  path?: string;
  /** Its pixels when they could be decoded: rules are found in them and erased before OCR. */
  gray?: GrayImage;
  /** Where a cleaned copy of the picture may be written. */
  workDir: string;
}

export async function ocrImage(source: OcrSource, pageNumber: number, dpi: number, mayTurn = true): Promise<PageGeometry> {
  let input = source.path;
  let rules: ReturnType<typeof findPixelRules> = [];
  let cleaned = source.gray;
  if (source.gray) {
    rules = findPixelRules(source.gray, dpi);
    if (rules.length) cleaned = eraseRules(source.gray, rules);
    if (rules.length || !input) {
      input = join(source.workDir, `ocr-page-${pageNumber}.pgm`);
      await writePgm(input, cleaned!);
    }
  }
  if (!input) throw new Error('ocrImage needs a file or decoded pixels');
  let page = await recognize(input, 11);
  let upright = true;
  if (source.gray && mayTurn && (page.words.length === 0 || meanConfidence(page) < DOUBTFUL_CONFIDENCE)) {
    // Orientation detection on a half-size copy; a turned page is turned upright and read again
    // (rules included). Text that is upright but poorly read keeps its first reading.
    const small = join(source.workDir, `ocr-osd-${pageNumber}.pgm`);
    await writePgm(small, halfSize(source.gray));
    const rotation = await detectRotation(small);
    await rm(small, { force: true });
    if (rotation !== 0) {
      const turned = await ocrImage({ gray: rotateGray(source.gray, rotation), workDir: source.workDir }, pageNumber, dpi, false);
      if (turned.words.length > 0) return turned;
    }
  } else if (!source.gray && (page.words.length === 0 || meanConfidence(page) < DOUBTFUL_CONFIDENCE)) {
    // psm 1 runs orientation detection first and reads the page turned upright.
    const oriented = await recognize(input, 1);
    if (meanConfidence(oriented) > meanConfidence(page)) {
      page = oriented;
      upright = readingTurns(page) === 0;
    }
  }
  if (cleaned && upright && page.words.length > 0 && readingTurns(page) === 0) {
    page = { ...page, words: [...page.words, ...(await readDroppedInk(cleaned, page.words, dpi, source.workDir, pageNumber))] };
  }
  if (source.gray && (page.width !== source.gray.width || page.height !== source.gray.height)) {
    page = { ...page, width: source.gray.width, height: source.gray.height };
  }
  return ocrGeometry(page, pageNumber, 72 / dpi, rulingsOfPixelRules(rules));
}

// Words read back from dropped ink below this confidence are noise (specks, bits of pictures).
const DROPPED_MIN_CONFIDENCE = 50;

/** Words for the ink tesseract's sparse pass left out, read in one extra call (see dropped-ink.ts). */
async function readDroppedInk(image: GrayImage, words: readonly OcrWord[], dpi: number, workDir: string, pageNumber: number): Promise<OcrWord[]> {
  const blobs = uncoveredInk(image, words, dpi);
  if (blobs.length === 0) return [];
  const strip = stackBlobs(image, blobs);
  const path = join(workDir, `ocr-dropped-${pageNumber}.pgm`);
  await writePgm(path, strip.image);
  try {
    const read = await recognize(path, 6);
    return wordsFromStrip(strip, blobs, read.words.filter((w) => w.conf >= DROPPED_MIN_CONFIDENCE));
  } finally {
    await rm(path, { force: true });
  }
}

// One picture -> page geometry in points, upright: ruling lines found in its pixels (then erased
// so that tesseract reads the text between them cleanly), tesseract's words, and the words its
// sparse-text pass dropped (read back in one small extra call).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PageGeometry } from '../layout/geometry.js';
import type { GrayImage } from './gray-image.js';
import { writePgm } from './gray-image.js';
import { uncoveredInk, stackBlobs, wordsFromStrip } from './dropped-ink.js';
import { ocrGeometry, readingTurns } from './ocr-geometry.js';
import { eraseRules, findPixelRules, rulingsOfPixelRules } from './raster-rulings.js';
import { meanConfidence, recognize, type OcrPage, type OcrWord } from './tesseract.js';

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

interface Reading {
  geometry: PageGeometry;
  confidence: number;
}

export async function ocrImage(source: OcrSource, pageNumber: number, dpi: number): Promise<PageGeometry> {
  return (await readPicture(source, pageNumber, dpi, true)).geometry;
}

/** Whether a reading looks like that of a page turned sideways or upside down. */
function doubtful(page: OcrPage): boolean {
  return page.words.length === 0 || meanConfidence(page) < DOUBTFUL_CONFIDENCE;
}

async function readPicture(source: OcrSource, pageNumber: number, dpi: number, mayTurn: boolean): Promise<Reading> {
  let input = source.path;
  let rules: ReturnType<typeof findPixelRules> = [];
  let cleaned = source.gray;
  if (source.gray) {
    rules = findPixelRules(source.gray, dpi);
    // The decoded pixels are this reader's own: rules are erased in them directly.
    if (rules.length) cleaned = eraseRules(source.gray, rules, true);
    if (rules.length || !input) {
      input = join(source.workDir, `ocr-page-${pageNumber}.pgm`);
      await writePgm(input, cleaned!);
    }
  }
  if (!input) throw new Error('ocrImage needs a file or decoded pixels');
  let page = await recognize(input, 11);
  let upright = true;
  if (mayTurn && doubtful(page)) {
    // psm 1 runs orientation detection first and reads the page turned upright; its word boxes
    // stay in this picture's pixels (ocrGeometry turns them, and the rules with them).
    const oriented = await recognize(input, 1);
    if (meanConfidence(oriented) > meanConfidence(page)) {
      page = oriented;
      upright = readingTurns(page) === 0;
    }
  }
  const confidence = meanConfidence(page);
  if (cleaned && upright && page.words.length > 0 && readingTurns(page) === 0) {
    page = { ...page, words: [...page.words, ...(await readDroppedInk(cleaned, page.words, dpi, source.workDir, pageNumber))] };
  }
  if (source.gray && (page.width !== source.gray.width || page.height !== source.gray.height)) {
    page = { ...page, width: source.gray.width, height: source.gray.height };
  }
  return { geometry: ocrGeometry(page, pageNumber, 72 / dpi, rulingsOfPixelRules(rules)), confidence };
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

// One picture -> page geometry in points, upright: a photographed page cut out of the desk and
// squared up (paper.ts), brought to about 300 dpi, its paper to white where the light was uneven
// (lighting.ts), straightened when askew (deskew.ts), ruling lines found in its pixels (then
// erased so that tesseract reads the text between them cleanly), dot leaders erased likewise
// (leaders.ts), tesseract's words (the picture handed to it in bands: bands.ts), and the words its
// sparse-text pass dropped (read back in one small extra call). A page that reads poorly is
// checked for a turn (orientation detection) and for another script; a turned page is turned
// upright in memory and read again like an upright one.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PageGeometry, Ruling } from '../layout/geometry.js';
import type { GrayImage } from './gray-image.js';
import { turnGray, writePgm } from './gray-image.js';
import { straighten } from './deskew.js';
import { evenLight, whitenPaper } from './lighting.js';
import { cutOutPaper, sheetResolution } from './paper.js';
import { OCR_DPI } from './raster.js';
import { enlargeGray, shrinkGray } from './resample.js';
import { uncoveredInk, stackBlobs, wordsFromStrip, type Dash, type InkBlob } from './dropped-ink.js';
import { restoreDecimalPoints, restoreMinusSigns } from './figure-marks.js';
import { ocrGeometry, readingTurns, turnRulings } from './ocr-geometry.js';
import { eraseRules, findPixelRules, rulingsOfPixelRules } from './raster-rulings.js';
import { dotRuns, eraseLeaders, isErased, withDots } from './leaders.js';
import { detectOrientation, installedLanguages, languageForScript, meanConfidence, recognize, recognizePicture, type OcrPage, type OcrWord, type PageOrientation } from './tesseract.js';

// Below this mean word confidence the page is probably turned: sparse-text reading assumes
// upright text.
const DOUBTFUL_CONFIDENCE = 60;
// An upright page in a script tesseract reads has most of its words read with high confidence;
// a turned one (read as gibberish, or as a few sideways fragments) has few, even when its mean
// confidence passes.
const HIGH_CONFIDENCE = 85;
const MIN_HIGH_SHARE = 0.45;
// So may one where many words read poorly (a column of labels in another script): a clean page
// of a script tesseract reads has a few percent of such words.
const POOR_WORD_CONFIDENCE = 50;
const POOR_WORD_SHARE = 0.2;
const LETTER = /\p{L}/u;

export interface OcrSource {
  /** The picture as a file tesseract can read, for when it could not be decoded here (`gray` absent). */
  path?: string;
  /** Its pixels when they could be decoded: rules are found in them and erased before OCR. */
  gray?: GrayImage;
  /**
   * Its resolution when known (a rendered PDF page; a scan that states one believably). Otherwise
   * the size of its text decides whether it is enlarged, and it is taken to be at OCR_DPI.
   */
  dpi?: number;
  /** Where a cleaned copy of the picture may be written. */
  workDir: string;
}

// Pictures below LOW_DPI are enlarged to OCR_DPI before anything reads them: tesseract misreads
// small glyphs, and this reader's pixel rules are in inches (eval --dpi 150: 0.66 as they were,
// 0.87 enlarged). Pictures at twice OCR_DPI or more are shrunk to about OCR_DPI: tesseract takes
// twice as long on a 600 dpi page, and reads it worse (eval --dpi 600: 0.87 as it was, 0.90 shrunk).
const LOW_DPI = 250;
// A picture of unknown resolution is enlarged when tesseract, judging by its text, puts it below
// LOW_ESTIMATE: by ESTIMATE_TARGET / estimate, read again. (Its estimates for pages of body text
// rendered at 300 dpi come to 280-350.)
const LOW_ESTIMATE = 250;
const ESTIMATE_TARGET = 330;
const MAX_ENLARGEMENT = 4;
const MAX_ENLARGED_PIXELS = 60_000_000;

/** `lang`: tesseract's -l argument for the document ("eng", "spa+eng"); see languageArgument. */
export async function ocrImage(source: OcrSource, pageNumber: number, lang: string): Promise<PageGeometry> {
  // A photographed page is cut out of its background first: the rest reads the page alone. A
  // picture of unknown resolution shaped like a whole sheet of paper is taken to be one.
  const gray = source.gray && cutOutPaper(source.gray);
  const dpi = source.dpi ?? (gray && sheetResolution(gray));
  if (!gray) return readFile(source, pageNumber, dpi ?? OCR_DPI, lang);
  if (dpi === undefined) return readPixels(gray, source, pageNumber, { dpi: OCR_DPI, known: false }, lang);
  const factor = dpi < LOW_DPI ? enlargement(gray, OCR_DPI / dpi) : 1;
  if (factor > 1) return readPixels(enlargeGray(gray, factor), source, pageNumber, { dpi: dpi * factor, known: true }, lang);
  const shrink = Math.round(dpi / OCR_DPI);
  if (shrink >= 2) return readPixels(shrinkGray(gray, shrink), source, pageNumber, { dpi: dpi / shrink, known: true }, lang);
  return readPixels(gray, source, pageNumber, { dpi, known: true }, lang);
}

/** How many times a picture is enlarged to be `wanted` times as large: 1 when not worth it. */
function enlargement(image: GrayImage, wanted: number): number {
  const factor = Math.min(wanted, MAX_ENLARGEMENT, Math.sqrt(MAX_ENLARGED_PIXELS / (image.width * image.height)));
  return factor >= 1.05 ? factor : 1;
}

// Ink, for this question only, is anything darker than white paper: lighter than DARK, the ink
// the other readers count, so that a page of pale text is still read (and paper too grey for
// this is ink too). A picture holds ink when it has about one letter's worth (10 pt at 300 dpi).
const INK_LEVEL = 224;
const LETTER_INK_AT_300_DPI = 150;

function holdsInk(image: GrayImage, dpi: number): boolean {
  const enough = LETTER_INK_AT_300_DPI * (dpi / OCR_DPI) ** 2;
  let ink = 0;
  for (const v of image.data) if (v < INK_LEVEL && ++ink >= enough) return true;
  return false;
}

/** Whether a reading looks like that of a turned page or of another script (in whole or in part). */
function doubtful(page: OcrPage): boolean {
  return page.words.length === 0 || meanConfidence(page) < DOUBTFUL_CONFIDENCE;
}

/** Whether a reading may be that of a turned page: doubtful, or with few confidently read words. */
export function mayBeTurned(page: OcrPage): boolean {
  if (doubtful(page)) return true;
  const high = page.words.filter((w) => w.conf >= HIGH_CONFIDENCE).length;
  return high < MIN_HIGH_SHARE * page.words.length;
}

/** Many poorly read words on an otherwise well read page: perhaps labels in another script. */
function partlyForeign(page: OcrPage): boolean {
  const poor = page.words.filter((w) => w.conf < POOR_WORD_CONFIDENCE).length;
  // A page with nothing read on it (a blank sheet in a scan) has no words to read again.
  return poor > 0 && poor >= POOR_WORD_SHARE * page.words.length;
}

/** The picture tesseract read: cleaned pixels and the rules found in them (pixels). */
interface View {
  image: GrayImage;
  rulings: Ruling[];
  /** turned upright here: the words' order along lines is not asked again */
  turned: boolean;
}

type Turn = PageOrientation['rotate'];

// When orientation detection finds too little text to answer, the other turns are tried.
const ALL_TURNS: Turn[] = [180, 90, 270];

async function readPixels(decoded: GrayImage, source: OcrSource, pageNumber: number, resolution: { dpi: number; known: boolean }, base: string): Promise<PageGeometry> {
  const { dpi } = resolution;
  // Paper gone grey under uneven light is brought back to white, grainy paper too; a scan fed in
  // askew is then straightened: rules are found along rows and columns of pixels, and words are
  // put into rows and columns by their boxes.
  const lit = whitenPaper(evenLight(decoded));
  const { image: gray } = straighten(lit);
  const rules = findPixelRules(gray, dpi);
  // The decoded pixels are this reader's own: rules are erased in them directly, unless they
  // may yet be enlarged (resolution unknown).
  const unruled = rules.length ? eraseRules(gray, rules, resolution.known) : gray;
  const dots = dotRuns(unruled, dpi);
  const cleaned = eraseLeaders(unruled, dots.filter(isErased), resolution.known || unruled !== gray);
  const rulings = rulingsOfPixelRules(rules);
  // A sheet with next to no ink (the blank back of a duplex scan) has nothing to read: tesseract,
  // and the turns tried when it reads nothing, took 2 to 4 s on one.
  if (!holdsInk(cleaned, dpi)) return ocrGeometry({ width: cleaned.width, height: cleaned.height, words: [] }, pageNumber, 72 / dpi, rulings);
  let view: View = { image: cleaned, rulings, turned: false };
  // Shaded areas were cleared to dark text on white: no light-on-dark pass (tesseract.ts).
  const read = (image: GrayImage, name: string, lang: string): Promise<OcrPage> => recognizePicture(image, join(source.workDir, `${name}-${pageNumber}`), dpi, 11, lang, { darkOnLight: true });
  let page = await read(cleaned, 'ocr-page', base);
  if (!resolution.known && page.estimatedDpi !== undefined && page.estimatedDpi < LOW_ESTIMATE) {
    const factor = enlargement(gray, ESTIMATE_TARGET / page.estimatedDpi);
    if (factor > 1) return readPixels(enlargeGray(gray, factor), source, pageNumber, { dpi: OCR_DPI, known: true }, base);
  }
  let lang = base;
  if (mayBeTurned(page)) {
    // A poor reading: the page may be turned, or written in another script. Orientation and
    // script detection (psm 0) tells which. A turned page is turned upright here (pixels and
    // rules) and read again; a page in another script is read again in that language when
    // installed. Either reading is kept only when it is more confident than the first.
    const osd = await detectPictureOrientation(cleaned, join(source.workDir, `ocr-osd-${pageNumber}.pgm`));
    const turns = osd ? (osd.rotate === 0 ? [] : [osd.rotate]) : ALL_TURNS;
    for (const clockwise of turns) {
      const image = turnGray(cleaned, clockwise);
      const turned = await read(image, `ocr-turned-${clockwise}`, base);
      if (meanConfidence(turned) > meanConfidence(page)) {
        page = turned;
        view = { image, rulings: turnRulings(rulings, clockwise, cleaned.width, cleaned.height), turned: true };
        if (!mayBeTurned(page)) break;
      }
    }
    const other = osd && doubtful(page) ? languageForScript(osd.script, await installedLanguages()) : undefined;
    if (other && !base.split('+').includes(other)) {
      const again = await read(view.image, 'ocr-script', other);
      if (meanConfidence(again) > meanConfidence(page)) [page, lang] = [unspaced(other) ? joinUnspaced(again) : again, other];
    }
  }
  // Also on a doubtful page whose whole reading in the other script lost: a photographed page of
  // figures, read a little worse, with its labels in Hebrew.
  if (lang === base && partlyForeign(page)) {
    page = await rereadPoorWords(view.image, page, source.workDir, pageNumber);
  }
  if (page.words.length > 0 && (view.turned || readingTurns(page) === 0)) {
    // The dots were found in the picture as it came: a turned page's are elsewhere.
    const words = withDots(view.turned ? [] : dots, restoreDecimalPoints(view.image, restoreMinusSigns(view.image, page.words)));
    page = { ...page, words: [...words, ...(await readDroppedInk(view.image, words, dpi, source.workDir, pageNumber, lang))] };
  }
  if (page.width !== view.image.width || page.height !== view.image.height) {
    page = { ...page, width: view.image.width, height: view.image.height };
  }
  return ocrGeometry(page, pageNumber, 72 / dpi, view.rulings, undefined, view.turned);
}

/** Orientation and script detection on the whole picture, written to `path` for it. */
async function detectPictureOrientation(image: GrayImage, path: string): Promise<PageOrientation | undefined> {
  try {
    await writePgm(path, image);
    return await detectOrientation(path);
  } finally {
    await rm(path, { force: true });
  }
}

/**
 * A picture that could not be decoded here: tesseract reads the file as it is. A doubtful
 * reading is checked with orientation and script detection; a turned page is read again with
 * psm 1 (orientation corrected, word boxes still in this picture's pixels: ocrGeometry turns them).
 */
async function readFile(source: OcrSource, pageNumber: number, dpi: number, base: string): Promise<PageGeometry> {
  const input = source.path;
  if (!input) throw new Error('ocrImage needs a file or decoded pixels');
  let page = await recognize(input, 11, base);
  let turns: number | undefined;
  if (mayBeTurned(page)) {
    const osd = await detectOrientation(input);
    const other = osd?.rotate === 0 && doubtful(page) ? languageForScript(osd.script, await installedLanguages()) : undefined;
    if (other && !base.split('+').includes(other)) {
      const read = await recognize(input, 11, other);
      if (meanConfidence(read) > meanConfidence(page)) page = unspaced(other) ? joinUnspaced(read) : read;
    } else if (!osd || osd.rotate !== 0) {
      const oriented = await recognize(input, 1, base);
      if (meanConfidence(oriented) > meanConfidence(page)) {
        page = oriented;
        // quarter turns the page was given = the clockwise turn back, the other way round
        if (osd) turns = ((360 - osd.rotate) / 90) % 4;
      }
    }
  }
  return ocrGeometry(page, pageNumber, 72 / dpi, [], turns);
}

// Words read back from dropped ink below this confidence are noise (specks, bits of pictures).
const DROPPED_MIN_CONFIDENCE = 50;

/** Words for the ink tesseract's sparse pass left out, read in one extra call (see dropped-ink.ts). */
async function readDroppedInk(image: GrayImage, words: readonly OcrWord[], dpi: number, workDir: string, pageNumber: number, lang: string): Promise<OcrWord[]> {
  const { text: blobs, dashes } = uncoveredInk(image, words, dpi);
  return [...dashes.map(dashWord), ...(await readBlobs(image, blobs, workDir, pageNumber, lang))];
}

function dashWord(dash: Dash, i: number): OcrWord {
  return { ...dash, conf: 90, line: `dash.${i}` };
}

async function readBlobs(image: GrayImage, blobs: readonly InkBlob[], workDir: string, pageNumber: number, lang: string): Promise<OcrWord[]> {
  if (blobs.length === 0) return [];
  const strip = stackBlobs(image, blobs);
  const path = join(workDir, `ocr-dropped-${pageNumber}.pgm`);
  await writePgm(path, strip.image);
  try {
    const read = await recognize(path, 6, lang, { darkOnLight: true });
    return wordsFromStrip(strip, blobs, read.words.filter((w) => w.conf >= DROPPED_MIN_CONFIDENCE));
  } finally {
    await rm(path, { force: true });
  }
}

/**
 * The words read poorly, and the words of letters on a line with a word of letters read poorly: a
 * label in another script comes out as Latin letters, some of them read with confidence ("ONIN"
 * for מוצרים beside "RN\"" at 0).
 */
export function poorlyRead(page: OcrPage): OcrWord[] {
  const lines = new Set(page.words.filter((w) => w.conf < POOR_WORD_CONFIDENCE && LETTER.test(w.text)).map((w) => w.line));
  return page.words.filter((w) => w.conf < POOR_WORD_CONFIDENCE || (lines.has(w.line) && LETTER.test(w.text)));
}

/**
 * The poorly read words, stacked into a strip: script detection on the strip alone; when it names
 * a script with an installed language, the strip is read in that language and each word whose
 * new reading is more confident takes it (a page of figures with labels in Hebrew).
 */
async function rereadPoorWords(image: GrayImage, page: OcrPage, workDir: string, pageNumber: number): Promise<OcrPage> {
  const poor = poorlyRead(page).slice(0, 400);
  const blobs = poor.map((w) => ({ x0: Math.max(0, w.x0 - 2), y0: Math.max(0, w.y0 - 2), x1: Math.min(image.width, w.x1 + 2), y1: Math.min(image.height, w.y1 + 2) }));
  const strip = stackBlobs(image, blobs);
  const path = join(workDir, `ocr-poor-${pageNumber}.pgm`);
  await writePgm(path, strip.image);
  try {
    const osd = await detectOrientation(path);
    const lang = osd && osd.rotate === 0 ? languageForScript(osd.script, await installedLanguages()) : undefined;
    if (!lang) return page;
    const read = wordsFromStrip(strip, blobs, (await recognize(path, 6, lang)).words);
    const byBlob = new Map<string, OcrWord[]>();
    for (const w of read) byBlob.set(w.line, [...(byBlob.get(w.line) ?? []), w]);
    const replaced = new Map<OcrWord, OcrWord[]>();
    poor.forEach((old, i) => {
      const ws = byBlob.get(`dropped.${i}`);
      if (!ws?.length) return;
      const conf = ws.reduce((a, w) => a + w.conf, 0) / ws.length;
      // the new words belong to the old word's line, for the reading-direction check
      if (conf > old.conf) replaced.set(old, ws.map((w) => ({ ...w, line: old.line })));
    });
    if (replaced.size === 0) return page;
    return { ...page, words: page.words.flatMap((w) => replaced.get(w) ?? [w]) };
  } finally {
    await rm(path, { force: true });
  }
}

// Scripts written without spaces: tesseract's word breaks there are no spaces in the text.
const UNSPACED = new Set(['jpn', 'chi_sim', 'chi_tra', 'tha']);
// Words of one line closer than this share of their height are one run of text.
const UNSPACED_GAP = 0.35;
const SEPARATOR_GAP = 1.0;

function unspaced(lang: string): boolean {
  return UNSPACED.has(lang);
}

/** Neighbouring words on one text line with no space-sized gap between them, joined ("5," "664"). */
export function joinUnspaced(page: OcrPage): OcrPage {
  const sorted = [...page.words].sort((a, b) => a.x0 - b.x0);
  const words: OcrWord[] = [];
  for (const w of sorted) {
    const h = w.y1 - w.y0;
    const i = words.findIndex((p) => {
      const overlap = Math.min(p.y1, w.y1) - Math.max(p.y0, w.y0);
      const gap = w.x0 - p.x1;
      // after a separator (a thousands comma, a decimal point) a glyph's width of space is its own
      const limit = /[,.、，．]$/u.test(p.text) ? SEPARATOR_GAP : UNSPACED_GAP;
      return overlap >= 0.5 * Math.min(h, p.y1 - p.y0) && gap >= -0.1 * h && gap < limit * Math.max(h, p.y1 - p.y0);
    });
    const prev = words[i];
    if (prev) {
      words[i] = { ...prev, text: prev.text + w.text, x1: Math.max(prev.x1, w.x1), y0: Math.min(prev.y0, w.y0), y1: Math.max(prev.y1, w.y1), conf: Math.min(prev.conf, w.conf) };
    } else words.push(w);
  }
  return { ...page, words };
}

// Words -> text lines (words sharing a baseline band) -> chunks (runs of words with no
// column-sized gap between them).
import { type Box, type PageWord, boxOf, median } from './geometry.js';
import { hasMirrored, isMarks, marksToLogical } from './bidi.js';

export interface Line {
  words: PageWord[];
  box: Box;
  /** Typical font size of the line's words. */
  size: number;
}

// Fragments closer than this share of the font size belong to one word (pdf.js splits words
// at font or kerning changes).
const JOIN_GAP = 0.12;
// The decimal part of a figure ("78" ".84", "04" ":44"), apart from its whole part by up to this
// share of the font size: a typewriter's point sits in the middle of a full character's width.
const FIGURE_PART = /^[.,:]\d+%?$/u;
const FIGURE_PART_GAP = 0.6;
const LETTER = /\p{L}/u;
// Scripts whose words tesseract may cut apart: those written without spaces between words (the
// languages ocr-page.ts joins as UNSPACED: Chinese, Japanese, Thai) and Hangul.
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
// A gap wider than this share of the font size separates chunks (cells), not words.
const CHUNK_GAP = 0.8;

function verticalOverlap(a: Box, b: Box): number {
  return Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
}

/** Groups words into lines, top to bottom; words within a line left to right. */
export function groupLines(words: readonly PageWord[]): Line[] {
  const sorted = [...words].sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1) || a.x0 - b.x0);
  const open: { words: PageWord[]; box: Box }[] = [];
  const done: { words: PageWord[]; box: Box }[] = [];
  for (const word of sorted) {
    const h = word.y1 - word.y0;
    let best: { words: PageWord[]; box: Box } | undefined;
    let bestOverlap = 0;
    for (let i = open.length - 1; i >= 0; i--) {
      const line = open[i]!;
      if (line.box.y1 < word.y0) {
        // Lines are visited in order of their centres; one entirely above this word is closed.
        done.push(line);
        open.splice(i, 1);
        continue;
      }
      const overlap = verticalOverlap(line.box, word) / Math.max(1e-6, Math.min(h, line.box.y1 - line.box.y0));
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = line;
      }
    }
    if (best && bestOverlap >= 0.5) {
      // Fake bold is the same word printed twice at almost the same place: keep one.
      if (isDuplicate(best.words, word)) continue;
      best.words.push(word);
      // Keep the band of the line to its first words so that a tall word does not swallow neighbours.
      best.box = { x0: Math.min(best.box.x0, word.x0), y0: best.box.y0, x1: Math.max(best.box.x1, word.x1), y1: best.box.y1 };
    } else {
      open.push({ words: [word], box: { x0: word.x0, y0: word.y0, x1: word.x1, y1: word.y1 } });
    }
  }
  done.push(...open);
  const lines = done.map((l) => makeLine(marksInRtlRuns(joinFragments(l.words.sort((a, b) => a.x0 - b.x0)))));
  return lines.sort((a, b) => a.box.y0 + a.box.y1 - (b.box.y0 + b.box.y1) || a.box.x0 - b.box.x0);
}

function isDuplicate(words: readonly PageWord[], word: PageWord): boolean {
  for (let i = words.length - 1; i >= 0 && i >= words.length - 4; i--) {
    const w = words[i]!;
    if (w.text === word.text && Math.abs(w.x0 - word.x0) < 0.3 * word.size) return true;
  }
  return false;
}

export function makeLine(words: PageWord[]): Line {
  return { words, box: boxOf(words), size: median(words.map((w) => w.size)) || 10 };
}

/** A word of a script written with spaces between words. */
function spacedWord(text: string): boolean {
  return LETTER.test(text) && !UNSPACED_SCRIPT.test(text);
}

function joinFragments(words: PageWord[]): PageWord[] {
  const out: PageWord[] = [];
  for (const w of words) {
    const prev = out[out.length - 1];
    // Fragments of one direction join; figures and punctuation (no letters) join either
    // direction, taking the direction of the text they attach to ("בני-קיימא", "(ללא").
    const sameRun = prev && (prev.rtl === w.rtl || !LETTER.test(prev.text) || !LETTER.test(w.text));
    // Tesseract's words are words already, even where its boxes touch ("at" "cost,"); scripts
    // written without spaces (CJK) still join.
    const ocrWords = prev && prev.font === '' && w.font === '' && spacedWord(prev.text) && spacedWord(w.text);
    const gap = prev ? w.x0 - prev.x1 : Infinity;
    const figurePart = prev && /\d$/u.test(prev.text) && FIGURE_PART.test(w.text) && gap < FIGURE_PART_GAP * Math.min(prev.size, w.size);
    if (prev && sameRun && !ocrWords && !w.ruledLeft && (gap < JOIN_GAP * Math.min(prev.size, w.size) || figurePart) && w.x0 >= prev.x0) {
      const rtl = prev.rtl || w.rtl;
      // Marks from a left-to-right reader item joining right-to-left text are in visual order:
      // put them into logical order, brackets mirrored (the glyph ")" right of a Hebrew word opens it).
      const left = rtl && !prev.rtl && isMarks(prev.text) ? marksToLogical(prev.text) : prev.text;
      const right = rtl && !w.rtl && isMarks(w.text) ? marksToLogical(w.text) : w.text;
      out[out.length - 1] = {
        ...prev,
        rtl,
        text: rtl ? right + left : left + right,
        x1: Math.max(prev.x1, w.x1),
        y0: Math.min(prev.y0, w.y0),
        y1: Math.max(prev.y1, w.y1),
      };
    } else {
      out.push(w);
    }
  }
  return out;
}

/** Words of a line in runs separated by column-sized gaps, left to right. */
export function chunkWords(line: Line): PageWord[][] {
  const runs: PageWord[][] = [];
  let right = -Infinity;
  for (const w of line.words) {
    if (runs.length && w.x0 - right <= CHUNK_GAP * line.size) {
      runs[runs.length - 1]!.push(w);
      right = Math.max(right, w.x1);
    } else {
      runs.push([w]);
      right = w.x1;
    }
  }
  return runs;
}

/** Runs of words separated by column-sized gaps. */
export function chunksOf(line: Line): Box[] {
  return chunkWords(line).map(boxOf);
}

/** Most words with letters are right-to-left script (most words, when none has letters). */
function readsRightToLeft(words: readonly PageWord[]): boolean {
  let rtl = 0;
  let ltr = 0;
  for (const w of words) {
    if (!LETTER.test(w.text)) continue;
    if (w.rtl) rtl++;
    else ltr++;
  }
  if (rtl + ltr === 0) return words.filter((w) => w.rtl).length * 2 > words.length;
  return rtl > ltr;
}

/**
 * Words of a line (left to right) with each word of bracket marks standing in a right-to-left
 * run ("(" "ללא" ")" set as three words) in logical form: mirrored, and right-to-left. A mark
 * word's direction is that of the words with letters on both sides of it, or the line's
 * direction when they differ or the line ends there.
 */
function marksInRtlRuns(words: PageWord[]): PageWord[] {
  if (!words.some((w) => w.rtl)) return words;
  const lineRtl = readsRightToLeft(words);
  const lettered = (from: number, step: number): boolean => {
    for (let i = from; i >= 0 && i < words.length; i += step) if (LETTER.test(words[i]!.text)) return words[i]!.rtl;
    return lineRtl;
  };
  return words.map((w, i) => {
    if (w.rtl || !isMarks(w.text) || !hasMirrored(w.text)) return w;
    const before = lettered(i - 1, -1);
    const after = lettered(i + 1, 1);
    const rtl = before === after ? before : lineRtl;
    return rtl ? { ...w, rtl, text: marksToLogical(w.text) } : w;
  });
}

/** Reading text of words: left to right, or right to left when most of them are rtl script. */
export function joinWords(words: readonly PageWord[]): string {
  const rtl = readsRightToLeft(words);
  const ordered = [...words].sort((a, b) => (rtl ? b.x0 - a.x0 : a.x0 - b.x0));
  return ordered.map((w) => w.text).join(' ');
}

export function lineText(line: Line): string {
  return joinWords(line.words);
}

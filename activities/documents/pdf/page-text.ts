// Text content of a pdf.js page -> word boxes on the upright page.
import type { PageWord } from '../layout/geometry.js';
import { isRtlText } from '../layout/geometry.js';
import { mirrorRtlRuns } from '../layout/bidi.js';
import { blankLeaders } from '../layout/cells.js';
import { apply, multiply, quarterTurnsFor, type Matrix, type PageFrame } from './page-frame.js';

/** The parts of a pdf.js text item this reader uses. */
export interface TextItemLike {
  str: string;
  dir: string;
  width: number;
  transform: number[];
  fontName: string;
}

export function isTextItem<T>(item: T): item is T & TextItemLike {
  return typeof item === 'object' && item !== null && 'str' in item && 'transform' in item;
}

// Glyph extent above and below the baseline, as a share of the font size.
const ASCENT = 0.8;
const DESCENT = 0.2;
const LETTER = /\p{L}/u;
// A vowel sign or other mark with no letter: pdf.js sets some apart from their letter, at the
// start of another item (Arabic tanween), where they belong to no word.
const MARKS_ONLY = /^\p{M}+$/u;
// Presentation forms: Arabic letters in their joined shapes (U+FB50-U+FDFF, U+FE70-U+FEFC),
// Hebrew letters with points and Latin ligatures (U+FB00-U+FB4F), as some PDFs hold them.
const PRESENTATION_FORMS = /[\uFB00-\uFDFF\uFE70-\uFEFC]+/gu;

/** Text in presentation forms as the letters they show ("ﻣﺮﺣﺒﺎ" as "مرحبا", "ﬁ" as "fi"): what a reader searches and a template names. */
export function asLetters(text: string): string {
  return text.replace(PRESENTATION_FORMS, (forms) => forms.normalize('NFKC'));
}

/** Quarter turns that make most of the page's text (weighted by characters) horizontal. */
export function dominantTurns(items: readonly TextItemLike[], viewportTransform: Matrix): number {
  const weight = [0, 0, 0, 0];
  for (const item of items) {
    const n = item.str.trim().length;
    if (n === 0) continue;
    const [a, b] = item.transform as Matrix;
    const dx = viewportTransform[0] * a + viewportTransform[2] * b;
    const dy = viewportTransform[1] * a + viewportTransform[3] * b;
    weight[quarterTurnsFor(dx, dy)]! += n;
  }
  let best = 0;
  for (let t = 1; t < 4; t++) if (weight[t]! > weight[best]!) best = t;
  return best;
}

/** Splits each text item into words placed proportionally along the item's advance. */
export function wordsOfItems(items: readonly TextItemLike[], frame: PageFrame): PageWord[] {
  const words: PageWord[] = [];
  for (const item of items) {
    const str = item.str;
    if (!str.trim()) continue;
    const t = multiply(item.transform as Matrix, frame.matrix);
    const size = Math.hypot(item.transform[2]!, item.transform[3]!) || Math.hypot(item.transform[0]!, item.transform[1]!);
    const scaleX = Math.hypot(item.transform[0]!, item.transform[1]!) || 1;
    // item.width is the advance in user space; in text space it is width / scaleX.
    const advance = item.width / scaleX;
    const rtl = item.dir === 'rtl';
    // pdf.js puts text holding right-to-left characters into logical order but leaves the
    // brackets of its right-to-left runs in their visual form.
    // Dot leaders are no words: blanked, they leave no ink between a label and its figures.
    const letters = asLetters(str);
    const text = blankLeaders(rtl || isRtlText(letters) ? mirrorRtlRuns(letters, rtl) : letters);
    const chars = Array.from(text);
    const n = chars.length;
    let i = 0;
    while (i < n) {
      while (i < n && /\s/u.test(chars[i]!)) i++;
      if (i >= n) break;
      let j = i;
      while (j < n && !/\s/u.test(chars[j]!)) j++;
      // Logical order of an rtl item runs from the right end of its advance.
      const from = rtl ? (n - j) / n : i / n;
      const to = rtl ? (n - i) / n : j / n;
      const word = chars.slice(i, j).join('');
      if (MARKS_ONLY.test(word)) {
        i = j;
        continue;
      }
      // A word is right-to-left by its script; one without letters takes its item's direction.
      const wordRtl = isRtlText(word) || (rtl && !LETTER.test(word));
      words.push(placeWord(word, t, advance * from, advance * to, size, item.fontName, wordRtl));
      i = j;
    }
  }
  return words;
}

function placeWord(text: string, t: Matrix, from: number, to: number, size: number, font: string, rtl: boolean): PageWord {
  // Text space: x along the advance (in units of the item's horizontal scale), y up in font units.
  const ascent = ASCENT;
  const descent = -DESCENT;
  const corners = [
    apply(t, from, descent),
    apply(t, to, descent),
    apply(t, from, ascent),
    apply(t, to, ascent),
  ];
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of corners) {
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  const word: PageWord = { text, x0, y0, x1, y1, size: Math.abs(y1 - y0) || size, font, rtl };
  // The advance runs up or down the upright page.
  return Math.abs(t[1]) > Math.abs(t[0]) ? { ...word, sideways: true } : word;
}

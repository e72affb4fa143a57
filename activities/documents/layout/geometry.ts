// Shared geometry of a page as the layout engine sees it: points, y growing downwards,
// in the page's upright reading orientation (rotation already applied by the readers).
import type { WordBox } from '../types.js';

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A horizontal extent. */
export interface Span {
  x0: number;
  x1: number;
}

/** A word with what the layout engine needs beyond its box. */
export interface PageWord extends WordBox {
  /** Font size in points (the word's height when the reader knows no better). */
  size: number;
  /** Reader's font identity (pdfjs font id, or '' for OCR): a header set in another font stands out. */
  font: string;
  /** Right-to-left script (Hebrew, Arabic): cells read from right to left. */
  rtl: boolean;
  /** A drawn vertical rule runs just left of the word: it starts a cell and joins no fragment before it. */
  ruledLeft?: boolean;
  /** Set across the page's lines (a running head up the margin, a label turned in a narrow column). */
  sideways?: boolean;
}

/** A ruling line drawn on the page: horizontal at `at` from `from` to `to`, or vertical likewise. */
export interface Ruling {
  horizontal: boolean;
  at: number;
  from: number;
  to: number;
}

export interface PageGeometry {
  page: number;
  width: number;
  height: number;
  words: PageWord[];
  rulings: Ruling[];
}

/**
 * Two lines of one stacked label: the narrower text lies within the wider one's width, give or
 * take `slack` (centred, left- or right-aligned lines all do).
 */
export function stacksWith(a: Span, b: Span, slack: number): boolean {
  const [narrow, wide] = a.x1 - a.x0 <= b.x1 - b.x0 ? [a, b] : [b, a];
  return narrow.x0 >= wide.x0 - slack && narrow.x1 <= wide.x1 + slack;
}

/** Two words set in one font and size; OCR words, which know neither, always are. */
export function sameType(a: PageWord, b: PageWord): boolean {
  if (a.font === '' && b.font === '') return true;
  return a.font === b.font && Math.abs(a.size - b.size) <= 0.05 * Math.max(a.size, b.size);
}

export function boxOf(items: readonly Box[]): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of items) {
    if (b.x0 < x0) x0 = b.x0;
    if (b.y0 < y0) y0 = b.y0;
    if (b.x1 > x1) x1 = b.x1;
    if (b.y1 > y1) y1 = b.y1;
  }
  return { x0, y0, x1, y1 };
}

export function centerX(b: Box): number {
  return (b.x0 + b.x1) / 2;
}

export function centerY(b: Box): number {
  return (b.y0 + b.y1) / 2;
}

export function contains(outer: Box, x: number, y: number, slack = 0): boolean {
  return x >= outer.x0 - slack && x <= outer.x1 + slack && y >= outer.y0 - slack && y <= outer.y1 + slack;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const RTL_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

export function isRtlText(text: string): boolean {
  return RTL_CHAR.test(text);
}

// A rule this close left of a word's start (points) is the border of the word's cell.
const RULED_LEFT_GAP = 4;

/**
 * The page with each word that starts right after a drawn vertical rule marked: text clipped at a
 * cell border often runs up against the next cell's first word, and must not be joined to it.
 */
export function markRuledStarts(page: PageGeometry): PageGeometry {
  const verticals = page.rulings.filter((r) => !r.horizontal);
  if (verticals.length === 0) return page;
  verticals.sort((a, b) => a.at - b.at);
  const words = page.words.map((w) => {
    const cy = (w.y0 + w.y1) / 2;
    // first rule at or right of x0 - gap (binary search), then the few up to x0
    let lo = 0;
    let hi = verticals.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (verticals[mid]!.at < w.x0 - RULED_LEFT_GAP) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < verticals.length && verticals[i]!.at <= w.x0 + 0.5; i++) {
      const r = verticals[i]!;
      if (cy >= r.from - 1 && cy <= r.to + 1) return { ...w, ruledLeft: true };
    }
    return w;
  });
  return { ...page, words };
}

type CharClass = 0 | 1 | 2 | 3;
function charClass(ch: string): CharClass {
  if (/\p{Lu}/u.test(ch)) return 1;
  if (/\p{L}/u.test(ch)) return 2;
  if (/\p{N}/u.test(ch)) return 3;
  return 0;
}

/** Where two tokens glued together meet: letters then figures (or back), lower case then upper. */
function isTokenBoundary(before: string, after: string): boolean {
  const a = charClass(before);
  const b = charClass(after);
  if (a === 0 || b === 0) return false;
  return (a === 3) !== (b === 3) || (a === 2 && b === 1);
}

/**
 * Words that run across a drawn vertical rule are split at it when two tokens meet there: text
 * clipped at a cell border runs into the next cell's text ("Elizab2165"), and readers (pdf.js
 * merging close glyph runs, tesseract not seeing the erased rule) return them as one word. The
 * split falls on the token boundary nearest to where the rule cuts the word (characters taken
 * as equally wide), at most two characters away; characters of the first token beyond the rule
 * are clipped by the cell border and dropped, as a reader of the page does not see them. Without
 * such a boundary the word is whole (a title drawn over column rules).
 */
export function splitAtRules(page: PageGeometry): PageGeometry {
  const verticals = page.rulings.filter((r) => !r.horizontal);
  if (verticals.length === 0) return page;
  let changed = false;
  const words: PageWord[] = [];
  for (const w of page.words) {
    const chars = Array.from(w.text);
    const cy = (w.y0 + w.y1) / 2;
    const rule = chars.length >= 2 ? verticals.find((r) => r.at > w.x0 + 1 && r.at < w.x1 - 1 && cy >= r.from - 1 && cy <= r.to + 1) : undefined;
    if (!rule) {
      words.push(w);
      continue;
    }
    const estimate = (chars.length * (rule.at - w.x0)) / (w.x1 - w.x0);
    let cut = -1;
    for (let k = 1; k < chars.length; k++) {
      if (Math.abs(k - estimate) > 2 || !isTokenBoundary(chars[k - 1]!, chars[k]!)) continue;
      if (cut < 0 || Math.abs(k - estimate) < Math.abs(cut - estimate)) cut = k;
    }
    if (cut < 0) {
      words.push(w);
      continue;
    }
    changed = true;
    // Characters of the first token that lie past the rule are clipped by the cell border: not shown.
    const shown = Math.max(1, Math.min(cut, Math.round(estimate)));
    words.push({ ...w, text: chars.slice(0, shown).join(''), x1: rule.at }, { ...w, text: chars.slice(cut).join(''), x0: rule.at });
  }
  return changed ? { ...page, words } : page;
}

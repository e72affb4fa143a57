// Words of a cell -> its text: lines top to bottom joined with one space.
import { type PageWord, median } from './geometry.js';
import { joinWords } from './lines.js';

export function cellText(words: readonly PageWord[]): string {
  if (words.length === 0) return '';
  if (words.length === 1) return words[0]!.text;
  const sorted = [...words].sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const tolerance = 0.5 * median(words.map((w) => w.y1 - w.y0));
  const lines: PageWord[][] = [];
  let lastCenter = -Infinity;
  for (const w of sorted) {
    const c = (w.y0 + w.y1) / 2;
    if (c - lastCenter > tolerance || lines.length === 0) {
      lines.push([w]);
      lastCenter = c;
    } else {
      lines[lines.length - 1]!.push(w);
    }
  }
  return withoutLeaders(lines.map(joinWords).reduce((text, line) => text + (RANGE_BROKEN.test(text) && /^\d/u.test(line) ? '' : ' ') + line));
}

// A range of figures broken after its dash ("2013–" over "2017") reads on without a space.
const RANGE_BROKEN = /\d[-‐–—]$/u;

/** Index of the column whose span holds x (nearest at the edges). */
export function columnAt(xs: readonly number[], x: number): number {
  // The first column whose right edge lies beyond x (a binary search: a page ruled into
  // hundreds of columns asks this of every word).
  let [lo, hi] = [0, xs.length - 2];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x < xs[mid + 1]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Column of a word: by its centre, but a word mostly inside one column stays there. */
export function columnOfWord(xs: readonly number[], w: PageWord): number {
  return columnAt(xs, (w.x0 + w.x1) / 2);
}

// Numbers, amounts, percentages and dates: what data rows hold and header rows don't.
const MONTH = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b/iu;

/** Words holding a figure: a line of data rather than of labels. */
export function holdsFigure(words: readonly PageWord[]): boolean {
  return words.some((w) => isValueLike(w.text));
}

export function isValueLike(text: string): boolean {
  const t = text.trim();
  if (!/\d/u.test(t)) return false;
  const letters = (t.match(/\p{L}/gu) ?? []).length;
  const dense = t.replace(/\s/gu, '').length;
  if (letters <= dense * 0.3) return true;
  return MONTH.test(t) && /\d{1,4}\s*[-‐/ .]\s*\p{L}{3,}/u.test(t);
}

// Dot leaders (". . . ." or "……") lead the eye from a label to its figures; they belong to
// neither. Three dots or fewer stay: "..." often stands for "not available".
const DOT_RUN = /(?:[.·‧∙…]\s*){2,}/gu;
/** Dots in a row that make a leader, at least (in text here, in a scan's pixels in ocr/leaders.ts). */
export const LEADER_DOTS = 4;

function isLeader(run: string): boolean {
  return [...run].reduce((n, c) => n + (c === '…' ? 3 : /\s/u.test(c) ? 0 : 1), 0) >= LEADER_DOTS;
}

/** Text with its dot leaders taken out and whitespace collapsed. */
export function withoutLeaders(text: string): string {
  return text
    .replace(DOT_RUN, (run) => (isLeader(run) ? ' ' : run))
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Text with each character of its dot leaders turned into a space: the others keep their places. */
export function blankLeaders(text: string): string {
  return text.replace(DOT_RUN, (run) => (isLeader(run) ? ' '.repeat([...run].length) : run));
}

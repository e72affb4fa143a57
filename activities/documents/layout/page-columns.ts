// A page set in two columns of prose (a report, a paper): its words parted at the gutter between
// the columns, so that a small table in one column is read apart from the prose beside it. Left
// together, each line of the table ran on into a line of prose, and no table was found.
//
// The gutter is a band at least MIN_GUTTER wide in the middle of the page that no word crosses,
// with lines of prose on both sides (a whitespace table's own wide gutter has short cells beside
// it, not prose, and stays).
import { type PageWord, boxOf } from './geometry.js';
import { groupLines } from './lines.js';

// Points of clear space between the columns, at least.
const MIN_GUTTER = 8;
// Where the gutter may lie: this share of the page's text width from either side, at least.
const EDGE_SHARE = 0.3;
// A line of prose: this many words or more, across most of its column.
const PROSE_WORDS = 6;
const PROSE_WIDTH = 0.7;
// Lines of prose on each side, at least.
const MIN_PROSE_LINES = 3;

/** The words of each column, left to right; the words as they are when the page is one column. */
export function pageColumns(words: readonly PageWord[]): (readonly PageWord[])[] {
  if (words.length === 0) return [words];
  const text = boxOf(words);
  const from = Math.floor(text.x0 + EDGE_SHARE * (text.x1 - text.x0));
  const to = Math.ceil(text.x1 - EDGE_SHARE * (text.x1 - text.x0));
  if (to - from < MIN_GUTTER) return [words];
  // Points of the middle band that some word covers.
  const covered = new Uint8Array(to - from);
  for (const w of words) {
    const a = Math.max(from, Math.floor(w.x0));
    const b = Math.min(to, Math.ceil(w.x1));
    if (a < b) covered.fill(1, a - from, b - from);
  }
  // The widest clear run.
  let best: { at: number; width: number } | undefined;
  let start = -1;
  for (let i = 0; i <= covered.length; i++) {
    if (i < covered.length && !covered[i]) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= MIN_GUTTER && (!best || i - start > best.width)) best = { at: from + (start + i) / 2, width: i - start };
    start = -1;
  }
  if (!best) return [words];
  const cut = best.at;
  const left = words.filter((w) => w.x1 <= cut);
  const right = words.filter((w) => w.x0 >= cut);
  return hasProse(left) && hasProse(right) ? [left, right] : [words];
}

function hasProse(words: readonly PageWord[]): boolean {
  if (words.length === 0) return false;
  const box = boxOf(words);
  const prose = groupLines(words).filter((l) => l.words.length >= PROSE_WORDS && l.box.x1 - l.box.x0 >= PROSE_WIDTH * (box.x1 - box.x0));
  return prose.length >= MIN_PROSE_LINES;
}

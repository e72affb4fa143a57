// Tables with no rules: runs of lines whose text falls into the same whitespace-separated columns.
import { type PageWord, type Span, boxOf, median, sameType, stacksWith } from './geometry.js';
import { chunksOf, makeLine, type Line } from './lines.js';
import { columnOfWord, isValueLike } from './cells.js';
import { whitespaceColumns } from './columns.js';
import { linesToRows } from './rows.js';
import type { GridRows } from './ruled-table.js';

// Lines further apart than this (in font sizes, the smaller line's) do not belong to one table:
// a running head set small over a title set large is apart from it.
const MAX_LINE_GAP = 2.0;
// Prose laid out in two columns is not a table: table cells are short.
const MAX_WORDS_PER_CELL = 5;
// Lines under a table set smaller than this share of its text are notes (sources, footnotes).
const NOTE_SIZE = 0.9;
// A stacked label's lines sit closer than a blank line apart; a few of them at most.
const MAX_STACK_GAP = 0.7;
const MAX_STACKED_LINES = 3;

export function textTables(lines: readonly Line[]): GridRows[] {
  const tables: GridRows[] = [];
  for (const run of tabularRuns(lines)) {
    const parts = splitSideBySide(run).map(tableOfLines);
    const [left, right] = parts;
    if (parts.length === 2 && left && right && left.xs.length === right.xs.length) {
      // A list too long for the page's height, wrapped into a second block of the same columns:
      // it reads on from the bottom of the left block to the top of the right one.
      tables.push({ box: boxOf([left.box, right.box]), xs: left.xs, rows: [...left.rows, ...right.rows] });
    } else {
      for (const t of parts) if (t) tables.push(t);
    }
  }
  return tables;
}

// Words with a glyph as tall as a capital: a capital, a figure, an ascender, or a letter of a
// script other than Latin (its letters are of one height, or rather not Latin's x-height).
const TALL = /[\p{Lu}\p{N}bdfhkl]|[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;

/**
 * The size of a line's text, for telling notes set smaller: its font size on a digital page. OCR
 * knows no font, and its words' boxes run from x-height ("one") to twice cap height (descenders,
 * a box grown over a neighbour's ink); the lower quartile of the heights of its words with a tall
 * glyph is its cap height. Undefined for a scanned line without one ("area"): its size is unknown.
 */
function textHeight(line: Line): number | undefined {
  if (line.words.some((w) => w.font !== '')) return line.size;
  const heights = line.words
    .filter((w) => TALL.test(w.text))
    .map((w) => w.size)
    .sort((a, b) => a - b);
  return heights[Math.floor((heights.length - 1) / 4)];
}

function tabularRuns(lines: readonly Line[]): Line[][] {
  const runs: Line[][] = [];
  let run: Line[] = [];
  const flush = (): void => {
    // Trailing single phrases end the table unless they sit tight under it (a wrapped last
    // cell); in a smaller font they are its notes, tight or not.
    const bodySize = median(run.filter((l) => chunksOf(l).length >= 2).flatMap((l) => textHeight(l) ?? []));
    while (run.length && chunksOf(run[run.length - 1]!).length < 2) {
      const last = run[run.length - 1]!;
      const above = run[run.length - 2];
      // (Tight by the body's size: a scanned line of short letters ("area") is only as tall as they are.)
      if (above && last.box.y0 - above.box.y1 <= 0.7 * Math.max(last.size, bodySize) && (textHeight(last) ?? bodySize) >= NOTE_SIZE * bodySize) break;
      run.pop();
    }
    if (run.filter((l) => chunksOf(l).length >= 2).length >= 2) runs.push(run);
    run = [];
  };
  // Lone phrases seen since the last run: the top lines of a column label stacked above the first row.
  let lead: Line[] = [];
  for (const line of lines) {
    const tabular = chunksOf(line).length >= 2;
    const last = run[run.length - 1];
    if (last) {
      const gap = line.box.y0 - last.box.y1;
      const runBox = boxOf(run.map((l) => l.box));
      const tooFar = gap > MAX_LINE_GAP * Math.min(line.size, last.size);
      const wideProse = !tabular && line.box.x1 - line.box.x0 > 0.6 * (runBox.x1 - runBox.x0) && line.words.length > 6;
      if (tooFar || wideProse || underTitle(run, line)) flush();
    }
    if (run.length) run.push(line);
    else if (tabular) run = [...stackedAbove(lead, line), line];
    lead = run.length ? [] : [...lead, line].slice(-MAX_STACKED_LINES);
  }
  flush();
  return runs;
}

// A title is set this much larger than the text under it, at least.
const TITLE_SIZE = 1.3;

/**
 * The run so far is one line set larger than the line under it: a title, in pieces or beside a
 * page number ("Table S-4.  Adjusted Baseline by Category  208"), over the table, not its first
 * row. On a scan, by the height of capitals and figures (textHeight); lines of unknown height
 * between the two (a speck read as "co") are passed over.
 */
function underTitle(run: readonly Line[], line: Line): boolean {
  const [title, ...between] = run;
  if (!title || between.some((l) => textHeight(l) !== undefined)) return false;
  const [above, below] = [textHeight(title), textHeight(line)];
  return above !== undefined && below !== undefined && above > TITLE_SIZE * below;
}

/**
 * The lone lines right above a table's first line that stack onto one of its cells: each sits
 * tight above the next, lines up with the cell text under it (stacksWith) and is set in its type.
 */
function stackedAbove(lead: readonly Line[], first: Line): Line[] {
  const stacked: Line[] = [];
  let below = first;
  let targets = chunksOf(first);
  for (let i = lead.length - 1; i >= 0 && stacked.length < MAX_STACKED_LINES; i--) {
    const line = lead[i]!;
    const [chunk, more] = chunksOf(line);
    if (!chunk || more || below.box.y0 - line.box.y1 > MAX_STACK_GAP * line.size) break;
    const slack = 0.5 * line.size;
    // A line flush with the table's left edge is its caption ("Table 2. Budget"), not a label line.
    const caption = Math.abs(chunk.x0 - first.box.x0) <= slack;
    const target = caption ? undefined : (targets.find((t) => stacksWith(chunk, t, slack)) ?? spannedBy(chunk, targets, slack));
    const under = target && below.words.find((w) => w.x0 >= target.x0 && w.x1 <= target.x1);
    // A title or unit note set in another type is no line of the label.
    if (!under || !sameType(under, line.words[0]!)) break;
    stacked.unshift(line);
    below = line;
    targets = [chunk];
  }
  return stacked;
}

/**
 * The chunks under a label that spans them ("Totals" over "2013–2017" and "2013–2022"), as one
 * span: the label reaches over two of them or more and lies within their width.
 */
function spannedBy(chunk: Span, targets: readonly Span[], slack: number): Span | undefined {
  const spanned = targets.filter((t) => t.x0 < chunk.x1 && t.x1 > chunk.x0);
  if (spanned.length < 2) return undefined;
  const span = { x0: Math.min(...spanned.map((t) => t.x0)), x1: Math.max(...spanned.map((t) => t.x1)) };
  return stacksWith(chunk, span, slack) ? span : undefined;
}

function tableOfLines(lines: readonly Line[]): GridRows | undefined {
  if (lines.length < 2) return undefined;
  const box = boxOf(lines.map((l) => l.box));
  const xs = whitespaceColumns(lines, box.x0 - 1, box.x1 + 1);
  if (xs.length < 3) return undefined;
  const cols = xs.length - 1;
  let words = 0;
  let cells = 0;
  for (const line of lines) {
    const used = new Set(line.words.map((w) => columnOfWord(xs, w)));
    cells += used.size;
    words += line.words.length;
  }
  if (cols === 2 && words / Math.max(1, cells) > MAX_WORDS_PER_CELL) return undefined;
  const rows = linesToRows(lines, xs);
  // Columns are what rows share: lines whose pieces never line up with another's are no table.
  const shared = xs.slice(1).filter((_, c) => rows.filter((r) => r.cells[c]!.length > 0).length >= 2).length;
  if (shared < 2) return undefined;
  return { box, xs, rows };
}

/**
 * Two tables side by side read as one wide one: split at a gap much wider than the others
 * when both sides have the same number of columns holding the same kinds of values.
 */
function splitSideBySide(lines: Line[]): Line[][] {
  const box = boxOf(lines.map((l) => l.box));
  const xs = whitespaceColumns(lines, box.x0 - 1, box.x1 + 1);
  const cols = xs.length - 1;
  if (cols < 4 || cols % 2) return [lines];
  const all = lines.flatMap((l) => l.words);
  const extents = xs.slice(1).map((_, c) => boxOf(all.filter((w) => columnOfWord(xs, w) === c)));
  const gaps = extents.slice(1).map((e, c) => e.x0 - extents[c]!.x1);
  const half = cols / 2;
  const middle = gaps[half - 1]!;
  const others = gaps.filter((_, i) => i !== half - 1);
  const size = median(lines.map((l) => l.size));
  if (middle < 3 * size || middle < 2.5 * Math.max(...others)) return [lines];
  const kind = (c: number): boolean => {
    const ws = all.filter((w) => columnOfWord(xs, w) === c);
    return ws.filter((w) => isValueLike(w.text)).length * 2 > ws.length;
  };
  for (let c = 0; c < half; c++) if (kind(c) !== kind(c + half)) return [lines];
  const cut = xs[half]!;
  const side = (keep: (w: PageWord) => boolean): Line[] =>
    lines.map((l) => l.words.filter(keep)).filter((ws) => ws.length).map(makeLine);
  return [side((w) => (w.x0 + w.x1) / 2 < cut), side((w) => (w.x0 + w.x1) / 2 >= cut)];
}

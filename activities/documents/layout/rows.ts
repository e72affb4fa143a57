// Text lines of a table -> rows: each line starts a row unless it only continues cells of the
// row above that wrapped (the text above fills its column, or breaks after a hyphen or comma, or
// the line leaves the row's key empty; and a bold header's first data row under it is no wrap).
import { type PageWord, sameType } from './geometry.js';
import { cellText, isValueLike } from './cells.js';
import { cellsOfLine, figureSpans } from './line-cells.js';
import type { Line } from './lines.js';
import type { CellRow } from './table.js';

// A wrapped continuation sits right under the line above: no blank line in between.
const MAX_WRAP_GAP = 0.7;
// Text filling at least this share of its column's widest text is taken as having wrapped.
const FULL = 0.72;
// A label's wrapped lines sit closer together than rows do by at least this share of the font size.
const CLOSER = 0.3;

/** Whether any of the cells holds a figure, an amount or a date. */
function holdsValue(cells: readonly PageWord[][]): boolean {
  return cells.some((c) => c.length > 0 && isValueLike(cellText(c)));
}

function extent(words: readonly PageWord[]): number {
  if (words.length === 0) return 0;
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const w of words) {
    x0 = Math.min(x0, w.x0);
    x1 = Math.max(x1, w.x1);
  }
  return x1 - x0;
}

/** `figures`: where the table's lines of figures lie in each column (these lines' by default). */
export function linesToRows(lines: readonly Line[], xs: readonly number[], figures = figureSpans(lines, xs)): CellRow[] {
  const perLine = lines.map((line) => cellsOfLine(line, xs, figures));
  const widest = xs.slice(1).map((_, c) => Math.max(0, ...perLine.map((cells) => extent(cells[c]!))));
  const rows: CellRow[] = [];
  let previous: { line: Line; cells: PageWord[][] } | undefined;
  lines.forEach((line, i) => {
    const cells = perLine[i]!;
    const row = rows[rows.length - 1];
    if (
      row &&
      previous &&
      !groupedRecord(perLine[i - 1]!, cells) &&
      // The first row is left whole: text over values there is a header over the first record.
      (continues(previous, line, cells, widest, row, rows.length === 1) || (rows.length > 1 && endsLabel(lines, i, row, cells, widest)))
    ) {
      cells.forEach((words, c) => row.cells[c]!.push(...words));
      row.bottom = Math.max(row.bottom, line.box.y1);
      // Later continuation lines are judged against this one, the latest line of each cell.
      previous = { line, cells: previous.cells.map((p, c) => (cells[c]!.length ? cells[c]! : p)) };
      return;
    }
    rows.push({ cells: cells.map((w) => [...w]), top: line.box.y0, bottom: line.box.y1 });
    previous = { line, cells };
  });
  return rows;
}

/**
 * Line i holds the values of a row whose label wrapped onto lines above it (cells aligned to the
 * bottom or the middle): the row so far is one line of text with no values that fills its
 * column, in line i's type (sameType); it sits tight above line i and clearly closer to it than
 * to the line above it, and line i fills more cells.
 */
function endsLabel(lines: readonly Line[], i: number, row: CellRow, cells: readonly PageWord[][], widest: readonly number[]): boolean {
  const label = lines[i - 1]!;
  const line = lines[i]!;
  if (row.top !== label.box.y0 || holdsValue(row.cells)) return false;
  // It wrapped because it filled its column; a heading ending in a colon introduces rows instead.
  const wrapped = row.cells.every((c, k) => !c.length || (extent(c) >= FULL * widest[k]! && !/:$/u.test(c[c.length - 1]!.text)));
  if (!wrapped) return false;
  if (!holdsValue(cells)) return false;
  if (cells.filter((c) => c.length).length <= row.cells.filter((c) => c.length).length) return false;
  // A section heading above its first row is set in a type of its own; a wrapped label is not.
  if (!label.words.every((w) => line.words.some((v) => sameType(v, w)))) return false;
  const below = line.box.y0 - label.box.y1;
  if (below > MAX_WRAP_GAP * line.size) return false;
  const above = label.box.y0 - lines[i - 2]!.box.y1;
  return above - below >= CLOSER * line.size;
}

/**
 * A line of a grouped table under the group's first record ("North  Apples  1,120.00" over
 * "Pears  1,080.00"): it fills every cell the line above fills but the leading ones, and holds a
 * figure under a figure. A wrapped cell's next line fills fewer, and a figure does not wrap into
 * another.
 */
function groupedRecord(above: readonly PageWord[][], cells: readonly PageWord[][]): boolean {
  const filledAbove = above.flatMap((c, k) => (c.length ? [k] : []));
  const filled = cells.flatMap((c, k) => (c.length ? [k] : []));
  if (filled.length < 2 || filled.length >= filledAbove.length) return false;
  const skipped = filledAbove.length - filled.length;
  if (filled.some((k, n) => k !== filledAbove[skipped + n])) return false;
  return filled.some((k) => isValueLike(cellText(cells[k]!)) && isValueLike(cellText(above[k]!)));
}

function continues(previous: { line: Line; cells: PageWord[][] }, line: Line, cells: PageWord[][], widest: readonly number[], row: CellRow, firstRow: boolean): boolean {
  const gap = line.box.y0 - previous.line.box.y1;
  // By the taller line: a scanned line of short letters ("area") is only as tall as they are.
  if (gap > MAX_WRAP_GAP * Math.max(line.size, previous.line.size)) return false;
  const filled = cells.filter((c) => c.length).length;
  const rowFilled = row.cells.filter((c) => c.length).length;
  if (filled >= rowFilled) return false;
  // A heading ending in a colon under a record of figures introduces the rows under it ("Costs:").
  const ending = line.words[line.words.length - 1]!.text;
  if (/:$/u.test(ending) && holdsValue(row.cells)) return false;
  const keyed = leavesKey(row, cells);
  return cells.every((words, c) => {
    if (words.length === 0) return true;
    const above = previous.cells[c]!;
    if (above.length === 0) return false;
    const last = above[above.length - 1]!;
    // Under a header set in its own font, the first record is no wrap of it (a record's bold
    // name over its plain description is one cell, though).
    if (firstRow && words[0]!.font !== last.font) return false;
    // A figure does not wrap onto the line below: a figure under one starts a row of its own
    // ("Other income  12" under "Cost of sales  (800)  (700)", its second figure missing).
    if (isValueLike(cellText(words)) && isValueLike(cellText(above))) return false;
    if (outdented(words, above, line.size)) return false;
    return extent(above) >= FULL * widest[c]! || /[-‐,/&]$/u.test(last.text) || (keyed && sameType(words[0]!, last));
  });
}

/**
 * Text that starts left of the text above it and stops short of its end: a heading set out from
 * the indented labels under the one before ("Mandatory programs:" under "  Subtotal, appropriated
 * programs"). A cell's next line starts where its text started, further in, or (centred, right
 * aligned) ends at or beyond its end.
 */
function outdented(words: readonly PageWord[], above: readonly PageWord[], size: number): boolean {
  const slack = 0.5 * size;
  const start = (ws: readonly PageWord[]): number => Math.min(...ws.map((w) => w.x0));
  const end = (ws: readonly PageWord[]): number => Math.max(...ws.map((w) => w.x1));
  return start(words) < start(above) - slack && end(words) < end(above) - slack;
}

/**
 * The line leaves empty the row's first cell, which holds a key (a date, a number, a code), and
 * fills only the row's next cell: a statement's description set over several lines ("Direct
 * debit" / "BRITISH GAS" / "REF 5521 0093" beside "04/03/2024"), where a short first line has not
 * filled its column. A line in the key's column starts a record. Figures before a
 * label (a right-to-left table's) are no key: a heading under such a row starts a group.
 */
function leavesKey(row: CellRow, cells: readonly PageWord[][]): boolean {
  const filled = row.cells.flatMap((c, k) => (c.length ? [k] : []));
  const [key, next] = filled;
  if (key === undefined || next === undefined || !isValueLike(cellText(row.cells[key]!))) return false;
  return cells.every((words, c) => (c === next) === words.length > 0);
}

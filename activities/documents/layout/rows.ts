// Text lines of a table -> rows: each line starts a row unless it only continues cells of the
// row above that wrapped (the text above fills its column, or breaks after a hyphen or comma).
import type { PageWord } from './geometry.js';
import { columnOfWord } from './cells.js';
import type { Line } from './lines.js';
import type { CellRow } from './table.js';

// A wrapped continuation sits right under the line above: no blank line in between.
const MAX_WRAP_GAP = 0.7;
// Text filling at least this share of its column's widest text is taken as having wrapped.
const FULL = 0.72;

function cellsOfLine(line: Line, xs: readonly number[]): PageWord[][] {
  const cells: PageWord[][] = Array.from({ length: xs.length - 1 }, () => []);
  for (const w of line.words) cells[columnOfWord(xs, w)]!.push(w);
  return cells;
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

export function linesToRows(lines: readonly Line[], xs: readonly number[]): CellRow[] {
  const perLine = lines.map((line) => cellsOfLine(line, xs));
  const widest = xs.slice(1).map((_, c) => Math.max(0, ...perLine.map((cells) => extent(cells[c]!))));
  const rows: CellRow[] = [];
  let previous: { line: Line; cells: PageWord[][] } | undefined;
  lines.forEach((line, i) => {
    const cells = perLine[i]!;
    const row = rows[rows.length - 1];
    if (row && previous && continues(previous, line, cells, widest, row)) {
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

function continues(previous: { line: Line; cells: PageWord[][] }, line: Line, cells: PageWord[][], widest: readonly number[], row: CellRow): boolean {
  const gap = line.box.y0 - previous.line.box.y1;
  if (gap > MAX_WRAP_GAP * line.size) return false;
  const filled = cells.filter((c) => c.length).length;
  const rowFilled = row.cells.filter((c) => c.length).length;
  if (filled >= rowFilled) return false;
  return cells.every((words, c) => {
    if (words.length === 0) return true;
    const above = previous.cells[c]!;
    if (above.length === 0) return false;
    const lastText = above[above.length - 1]!.text;
    return extent(above) >= FULL * widest[c]! || /[-‐,/&]$/u.test(lastText);
  });
}

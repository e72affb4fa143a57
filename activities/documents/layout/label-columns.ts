// A column label set apart from its figures: "Amount" left-aligned in its column over figures
// right-aligned at the column's end leaves a gap between the two that whitespace reads as a
// column boundary. The label's column then holds text only in the header and the figures' only
// below it; the two are one column.
import { boxOf } from './geometry.js';
import type { CellRow } from './table.js';

export interface Columns {
  rows: CellRow[];
  xs: number[];
}

/** Joins each header-only column with the body-only column beside it (the nearer, if both). */
export function joinLabelColumns(rows: readonly CellRow[], xs: readonly number[], header: number): Columns {
  let current: Columns = { rows: [...rows], xs: [...xs] };
  if (header === 0 || header >= rows.length) return current;
  for (let c = 0; c < current.xs.length - 1; c++) {
    const partner = partnerOf(current.rows, c, header);
    if (partner === undefined) continue;
    const [left, right] = partner < c ? [partner, c] : [c, partner];
    current = {
      xs: current.xs.filter((_, i) => i !== right),
      rows: current.rows.map((r) => ({ ...r, cells: [...r.cells.slice(0, left), [...r.cells[left]!, ...r.cells[right]!], ...r.cells.slice(right + 1)] })),
    };
    c = left - 1;
  }
  return current;
}

function partnerOf(rows: readonly CellRow[], c: number, header: number): number | undefined {
  const filled = (col: number, from: number, to: number): boolean => rows.slice(from, to).some((r) => r.cells[col]!.length > 0);
  const headerOnly = (col: number): boolean => filled(col, 0, header) && !filled(col, header, rows.length);
  const bodyOnly = (col: number): boolean => !filled(col, 0, header) && filled(col, header, rows.length);
  if (!headerOnly(c)) return undefined;
  const label = boxOf(rows.slice(0, header).flatMap((r) => r.cells[c]!));
  const distance = (col: number): number => {
    const figures = boxOf(rows.slice(header).flatMap((r) => r.cells[col]!));
    return Math.max(figures.x0 - label.x1, label.x0 - figures.x1);
  };
  const sides = [c - 1, c + 1].filter((col) => col >= 0 && col < rows[0]!.cells.length && bodyOnly(col));
  return sides.sort((a, b) => distance(a) - distance(b))[0];
}

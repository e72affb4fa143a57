// Columns whitespace splits that a reader takes as one.
// - A column label set apart from its figures: "Amount" left-aligned in its column over figures
//   right-aligned at the column's end leaves a gap that whitespace reads as a boundary. The
//   label's column then holds text only in the header and the figures' only below it.
// - A currency sign set apart from its figures ("$" at the left of an accounts column, on the
//   first and total lines only): a column of nothing but such signs belongs to the figures on
//   its right.
import { boxOf } from './geometry.js';
import { cellText } from './cells.js';
import type { CellRow } from './table.js';

export interface Columns {
  rows: CellRow[];
  xs: number[];
}

// The signs a currency column reads (activities/validation/data-types.ts).
const CURRENCY_SIGN = /^(?:[$€£¥₹₽₩₪₫₺₴₦฿]|(?:US|A|C|NZ|HK|S)\$)$/u;

/**
 * Joins each header-only column with the body-only column beside it (the nearer, if both), and
 * each column of lone currency signs with the figures on its right.
 */
export function joinColumns(rows: readonly CellRow[], xs: readonly number[], header: number): Columns {
  let current: Columns = { rows: [...rows], xs: [...xs] };
  for (let c = 0; c < current.xs.length - 1; c++) {
    const partner = signColumn(current.rows, c) ? c + 1 : header > 0 && header < rows.length ? partnerOf(current.rows, c, header) : undefined;
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

/** A column holding nothing but currency signs, with a column on its right. */
function signColumn(rows: readonly CellRow[], c: number): boolean {
  if (c + 1 >= rows[0]!.cells.length) return false;
  const texts = rows.map((r) => cellText(r.cells[c]!)).filter(Boolean);
  return texts.length > 0 && texts.every((t) => CURRENCY_SIGN.test(t));
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

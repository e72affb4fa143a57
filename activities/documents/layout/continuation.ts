// A table that runs over several pages: the first table of a page continues the last table of
// the page before when it has the same columns; its repeated header is dropped.
import { normalizeLabel } from '../../mapping/header-match.js';
import type { Span } from './geometry.js';
import type { LayoutTable } from './table.js';

function sameHeader(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  let same = 0;
  let filled = 0;
  a.forEach((cell, i) => {
    const x = normalizeLabel(cell);
    const y = normalizeLabel(b[i]!);
    if (x || y) filled++;
    if (x === y && x) same++;
  });
  return filled > 0 && same >= 0.8 * filled;
}

function sameColumns(a: LayoutTable, b: LayoutTable, pageWidth: number): boolean {
  if (a.columnXs.length !== b.columnXs.length) return false;
  const slack = Math.max(6, pageWidth * 0.02);
  return a.columnXs.every((x, i) => Math.abs(x - b.columnXs[i]!) <= slack) || sameColumnText(a.columnSpans, b.columnSpans);
}

/**
 * The text of each column lies where the same column's text lies on the page before, and clear of
 * the others' (boundaries alone differ where a wide header moved them on the first page).
 */
function sameColumnText(a: readonly (Span | null)[], b: readonly (Span | null)[]): boolean {
  const overlaps = (s: Span, t: Span): boolean => Math.min(s.x1, t.x1) > Math.max(s.x0, t.x0);
  let compared = 0;
  for (let c = 0; c < b.length; c++) {
    const span = b[c];
    if (!span || !a[c]) continue;
    if (!overlaps(span, a[c]!) || a.some((other, d) => d !== c && other && overlaps(span, other))) return false;
    compared++;
  }
  return compared >= 2 && compared * 2 >= b.length;
}

/** Merges continuations; `tablesByPage` in page order, each page's tables in reading order. */
export function joinContinuedTables(tablesByPage: readonly LayoutTable[][], pageWidths: readonly number[]): LayoutTable[] {
  const out: LayoutTable[] = [];
  let previousPageLast: LayoutTable | undefined;
  tablesByPage.forEach((tables, p) => {
    tables.forEach((table, i) => {
      const prev = previousPageLast;
      if (i === 0 && prev && prev.lastPage === table.page - 1 && prev.rows[0]!.length === table.rows[0]!.length) {
        const header = prev.hasHeader && table.rows.length > 0 && sameHeader(prev.rows[0]!, table.rows[0]!);
        const aligned = !table.hasHeader && sameColumns(prev, table, pageWidths[p] ?? 600);
        if (header || aligned) {
          prev.rows.push(...(header ? table.rows.slice(1) : table.rows));
          prev.lastPage = table.page;
          return;
        }
      }
      out.push(table);
    });
    const last = tables[tables.length - 1];
    // A page with no table breaks the chain; a continued table stays the candidate.
    previousPageLast = last ? (out.includes(last) ? last : previousPageLast) : undefined;
  });
  return out;
}

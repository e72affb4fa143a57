// All tables of one page: ruled regions first, then whitespace-aligned runs among the
// remaining text.
import { type PageGeometry, type PageWord, boxOf } from './geometry.js';
import { cellText } from './cells.js';
import { findRuledRegions } from './grid.js';
import { headerShape, mergeRows } from './header.js';
import { joinColumns } from './column-joins.js';
import { groupLines, type Line } from './lines.js';
import { pageColumns } from './page-columns.js';
import { ruledGrid, wordsInside, type GridRows } from './ruled-table.js';
import { rulesBoundTable } from './row-rules.js';
import type { CellRow, LayoutTable } from './table.js';
import { textTables } from './text-table.js';

export function findPageTables(page: PageGeometry, lines: readonly Line[] = groupLines(page.words)): LayoutTable[] {
  const tables: LayoutTable[] = [];
  const claimed = new Set<PageWord>();
  for (const region of findRuledRegions(page.rulings, page.width, page.height)) {
    if (!rulesBoundTable(region, lines)) continue;
    const grid = ruledGrid(region, page.words.filter((w) => !claimed.has(w)), lines);
    const table = grid && finish(grid, page.page, true);
    if (!table || !grid) continue;
    tables.push(table);
    for (const w of wordsInside(page.words, grid.box)) claimed.add(w);
  }
  // A page in two columns of prose: each column's tables apart from the prose beside them.
  // Sideways words are left out: with no rule to hold them to a cell, one spans the lines of
  // several rows (a running head up the margin).
  for (const column of pageColumns(page.words.filter((w) => !claimed.has(w) && !w.sideways))) {
    for (const grid of textTables(groupLines(column))) {
      const table = finish(grid, page.page, false);
      if (table) tables.push(table);
    }
  }
  return readingOrder(tables);
}

/** Drops empty rows and columns, finds and merges the header; undefined when not a table. */
function finish(grid: GridRows, page: number, ruled: boolean): LayoutTable | undefined {
  let rows = grid.rows.filter((r) => r.cells.some((c) => c.length));
  const keep = grid.xs.slice(1).map((_, c) => rows.some((r) => r.cells[c]!.length > 0));
  const columns = keep.filter(Boolean).length;
  if (columns < 2 || rows.length < 2) return undefined;
  rows = rows.map((r) => ({ ...r, cells: r.cells.filter((_, c) => keep[c]) }));
  const xs = [grid.xs[0]!, ...grid.xs.slice(1).filter((_, c) => keep[c])];
  const shape = headerShape(rows, xs);
  const header = Math.max(shape.header, grid.headerHint ?? 0);
  // Captions above a header are the table's title, not its rows.
  const joined = joinColumns(rows.slice(header > 0 ? shape.captions : 0), xs, header);
  const body = joined.rows;
  const merged: CellRow[] = header > 1 ? [mergeRows(body, header), ...body.slice(header)] : body;
  const texts = merged.map((r) => r.cells.map(cellText));
  const words = rows.flatMap((r) => r.cells.flat());
  return {
    page,
    lastPage: page,
    box: { ...boxOf(words), y0: Math.min(grid.box.y0, boxOf(words).y0) },
    columnXs: joined.xs,
    columnSpans: joined.xs.slice(1).map((_, c) => {
      const inColumn = merged.slice(header > 0 ? 1 : 0).flatMap((r) => r.cells[c]!);
      return inColumn.length ? boxOf(inColumn) : null;
    }),
    rows: texts,
    hasHeader: header > 0,
    ruled,
  };
}

/** Top to bottom; tables side by side (overlapping vertically) left to right. */
function readingOrder(tables: LayoutTable[]): LayoutTable[] {
  return tables.sort((a, b) => {
    const overlap = Math.min(a.box.y1, b.box.y1) - Math.max(a.box.y0, b.box.y0);
    const shorter = Math.min(a.box.y1 - a.box.y0, b.box.y1 - b.box.y0);
    if (overlap > 0.5 * shorter) return a.box.x0 - b.box.x0;
    return a.box.y0 - b.box.y0;
  });
}

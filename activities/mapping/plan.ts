// Decides which sheets (or detected tables) feed which template table, from the first rows of
// each: the best header match wins, sheets with the same header are concatenated in order.
import type { TemplateTable } from '../../lib/template.js';
import { sheetRows } from '../documents/sheet-rows.js';
import type { SheetSource } from '../documents/types.js';
import { matchHeader, normalizeLabel } from './header-match.js';

export interface SheetSample {
  name: string;
  page?: number;
  /** the first rows of the sheet */
  rows: string[][];
  /** text just above a table in a document (used by the `table_start` guidance hint) */
  startMarker?: string;
}

export interface SheetPlan {
  sheet: number;
  /** index of the header row within the sheet; -1 when columns are taken by position */
  headerRow: number;
  /** template column index -> cell index, -1 when missing */
  columnToCell: number[];
}

export interface TablePlan {
  tableKey: string;
  sources: SheetPlan[];
  score: number;
}

/** How many leading rows may sit above a header (titles, notes, logos). */
export const HEADER_SEARCH_ROWS = 25;

interface Candidate {
  sheet: number;
  headerRow: number;
  columnToCell: number[];
  score: number;
  matched: number;
  signature: string;
}

function minimumMatches(columnCount: number): number {
  return columnCount <= 2 ? 1 : Math.max(2, Math.ceil(columnCount * 0.4));
}

function bestHeader(sample: SheetSample, sheet: number, table: TemplateTable): Candidate | null {
  let best: Candidate | null = null;
  const limit = Math.min(sample.rows.length, HEADER_SEARCH_ROWS);
  for (let r = 0; r < limit; r++) {
    const cells = sample.rows[r]!;
    // Tables found in documents (they have a page) merge headers set on several lines.
    const m = matchHeader(cells, table.columns, { groupedHeaders: sample.page !== undefined });
    if (m.matched < minimumMatches(table.columns.length)) continue;
    if (!best || m.score > best.score + 1e-9) {
      best = { sheet, headerRow: r, columnToCell: m.columnToCell, score: m.score, matched: m.matched, signature: cells.map(normalizeLabel).join('|') };
    }
  }
  return best;
}

function markerBonus(sample: SheetSample, marker: string | undefined): number {
  if (!marker || !sample.startMarker) return 0;
  return normalizeLabel(sample.startMarker).includes(normalizeLabel(marker)) ? 0.5 : 0;
}

export function planTables(samples: SheetSample[], tables: TemplateTable[], tableStart: Record<string, string> = {}): TablePlan[] {
  const plans: TablePlan[] = [];
  for (const table of tables) {
    const candidates = samples
      .map((sample, i) => bestHeader(sample, i, table))
      .filter((c): c is Candidate => c !== null)
      .map((c) => ({ ...c, rank: c.score + markerBonus(samples[c.sheet]!, tableStart[table.key]) }));
    if (candidates.length === 0) {
      plans.push({ tableKey: table.key, sources: [], score: 0 });
      continue;
    }
    const winner = candidates.reduce((a, b) => (b.rank > a.rank + 1e-9 ? b : a));
    const sources = candidates
      .filter((c) => c === winner || c.signature === winner.signature)
      .sort((a, b) => a.sheet - b.sheet)
      .map(({ sheet, headerRow, columnToCell }) => ({ sheet, headerRow, columnToCell }));
    plans.push({ tableKey: table.key, sources, score: winner.score });
  }
  // With one template table and no header match, take columns by position from the table that
  // looks most like it: the same number of columns first, then the most rows. Tables found in a
  // document (pages) of that table's shape (as many columns, each holding the same kind of
  // values) are parts of it (one table broken by text between them, one per section): all of
  // them are taken, in reading order. Spreadsheets keep to one sheet.
  const only = plans[0];
  if (tables.length === 1 && only && only.sources.length === 0) {
    const width = tables[0]!.columns.length;
    const candidates = samples
      .map((sample, sheet) => {
        const filled = sample.rows.filter((r) => r.some((c) => c.trim()));
        const columns = Math.max(0, ...filled.map((r) => r.length));
        return { sheet, rows: filled.length, columns, fit: columns === width ? 0 : Math.abs(columns - width) };
      })
      .filter((c) => c.rows > 0)
      .sort((a, b) => a.fit - b.fit || b.rows - a.rows || a.sheet - b.sheet);
    const best = candidates[0];
    if (best) {
      const paged = samples[best.sheet]!.page !== undefined;
      const kinds = columnKinds(samples[best.sheet]!.rows);
      const parts = paged ? candidates.filter((c) => c === best || (c.columns === best.columns && sameKinds(kinds, columnKinds(samples[c.sheet]!.rows)))) : [best];
      only.sources = parts
        .map((c) => c.sheet)
        .sort((a, b) => a - b)
        .map((sheet) => ({ sheet, headerRow: -1, columnToCell: tables[0]!.columns.map((_, i) => i) }));
    }
  }
  return plans;
}

// A figure, amount or percentage (with its sign, brackets or currency), as a table cell holds it.
const FIGURE = /^[^\p{L}]*\d[^\p{L}]*$/u;

/** Per column: whether most of its filled cells hold figures (undefined for an empty column). */
function columnKinds(rows: readonly string[][]): (boolean | undefined)[] {
  const width = Math.max(0, ...rows.map((r) => r.length));
  return Array.from({ length: width }, (_, c) => {
    let filled = 0;
    let figures = 0;
    for (const row of rows) {
      const t = (row[c] ?? '').trim();
      if (!t) continue;
      filled++;
      if (FIGURE.test(t)) figures++;
    }
    return filled ? figures * 2 > filled : undefined;
  });
}

function sameKinds(a: readonly (boolean | undefined)[], b: readonly (boolean | undefined)[]): boolean {
  return a.every((k, c) => k === undefined || b[c] === undefined || k === b[c]);
}

/** Projects a source row onto the template's columns; missing columns become "". */
export function projectRow(cells: string[], columnToCell: number[]): string[] {
  const out = new Array<string>(columnToCell.length);
  for (let i = 0; i < columnToCell.length; i++) {
    const at = columnToCell[i]!;
    out[i] = at >= 0 ? (cells[at] ?? '').trim() : '';
  }
  return out;
}

export function isBlankRow(cells: string[]): boolean {
  for (const c of cells) if (c.trim()) return false;
  return true;
}

/** Each sheet's first `limit` rows (all by default) in memory: documents' detected tables are small. */
export async function sheetSamples(sheets: SheetSource[], limit = Infinity): Promise<SheetSample[]> {
  const samples: SheetSample[] = [];
  for (const sheet of sheets) samples.push({ name: sheet.name, page: sheet.page, rows: await sheetRows(sheet, limit), startMarker: sheet.startMarker });
  return samples;
}

/** The template row a source's row `at` gives, or null for its header (and above) and blank rows. */
export function plannedRow(source: SheetPlan, at: number, cells: string[]): string[] | null {
  return at <= source.headerRow || isBlankRow(cells) ? null : projectRow(cells, source.columnToCell);
}

/** The rows loadTables writes for one planned table, from in-memory samples. */
export function plannedRows(samples: readonly SheetSample[], plan: TablePlan | undefined): string[][] {
  const rows: string[][] = [];
  for (const source of plan?.sources ?? []) {
    samples[source.sheet]!.rows.forEach((cells, at) => {
      const row = plannedRow(source, at, cells);
      if (row) rows.push(row);
    });
  }
  return rows;
}

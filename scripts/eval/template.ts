// The template the evaluation extracts with, built from the reference CSV.
//
// Rule: a reference holds one or more tables, each either under a header or not.
//   Header: a run of 1 to 3 reference rows (at least half of the merged row's cells named, no
//   cell a bare figure) whose cells, merged column by column (joined with a space, as the engine
//   merges a header set on several lines), match the first row of some table the engine emits:
//   the pipeline's own header matcher (exact or close spellings) finds at least 80% of its named
//   columns there. The shortest such run that matches best is the header; the first header may
//   start on any of the first 4 rows. Every header found
//   this way, at the top of the reference or further down (a second table), starts a template
//   table whose columns are the merged header's named cells; the reference rows below it, up to
//   the next header, are that table's expected rows, projected onto its columns (a row with text
//   only in an unnamed column projects to a blank row, as the pipeline's row does).
//   Rows above the first header (at most 3: titles, captions) are not scored: the pipeline, too,
//   takes rows above a table's header as its title, not as data. Above a later header, rows with
//   no figure and an empty first (stub) cell are that header's spanning rows, not scored either.
//   Otherwise (no header in the first rows): one table of columns column_1..N (N = widest reference
//   row), every reference row expected, cells by position.
// The header rows themselves are template column names, never scored as data.
import { matchHeader } from '../../activities/mapping/header-match.js';
import { normalizeCell } from './score.js';

export interface EvalColumn {
  key: string;
  name: string;
  data_type: 'string';
}

export interface EvalTable {
  key: string;
  columns: EvalColumn[];
  /** Reference rows in this table's column order. */
  expectedRows: string[][];
}

export interface EvalTemplate {
  mode: 'header' | 'position';
  tables: EvalTable[];
  /** All tables' expected rows, in reference order. */
  expectedRows: string[][];
}

const MAX_HEADER_ROWS = 3;
// Title rows that may stand above the first header.
const TITLE_ROWS = 3;
// Figures (2014, 1, 100, ...) name no column.
const FIGURE = /^[\d\s.,%()+\-‐/$€£¥△▲―]+$/u;

function keyOf(name: string, used: Set<string>): string {
  let base = name.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/gu, '_').replace(/^_+|_+$/gu, '');
  if (!/^[a-z]/u.test(base)) base = `c_${base || 'column'}`;
  let key = base;
  for (let n = 2; used.has(key); n++) key = `${base}_${n}`;
  used.add(key);
  return key;
}

/** Rows merged column by column, as the engine merges a header set on several lines. */
function mergeRows(rows: readonly string[][]): string[] {
  const width = Math.max(...rows.map((r) => r.length));
  return Array.from({ length: width }, (_, c) =>
    rows
      .map((r) => normalizeCell(r[c] ?? ''))
      .filter(Boolean)
      .join(' '),
  );
}

interface Header {
  start: number;
  rows: number;
  named: { name: string; i: number }[];
  /** the emitted table whose first row it matches best */
  table: number;
}

/** The header starting at reference row `start`, if a run of rows there matches an emitted table's first row. */
function headerAt(reference: readonly string[][], start: number, firstRowsOfTables: readonly string[][], exclude: ReadonlySet<number> = new Set()): (Header & { share: number }) | undefined {
  let best: (Header & { share: number }) | undefined;
  for (let k = 1; k <= MAX_HEADER_ROWS && start + k <= reference.length; k++) {
    const merged = mergeRows(reference.slice(start, start + k));
    const named = merged.map((name, i) => ({ name, i })).filter((c) => c.name !== '');
    if (named.length < 2 || named.length * 2 < merged.length || named.some((c) => FIGURE.test(c.name))) continue;
    const columns = named.map((c, i) => ({ key: `c${i}`, name: c.name, suggested_mappings: [] }));
    let matched = 0;
    let table = -1;
    firstRowsOfTables.forEach((row, t) => {
      if (exclude.has(t)) return;
      const m = matchHeader(row, columns).matched;
      if (m > matched) [matched, table] = [m, t];
    });
    if (matched < Math.ceil(0.8 * columns.length)) continue;
    const share = matched / columns.length;
    if (!best || share > best.share + 1e-9) best = { start, rows: k, named, share, table };
  }
  return best;
}

/**
 * Rows directly above a later header that belong to it: a spanning header row over its columns,
 * which the reference packs to the left so that merging it column by column spoils the match.
 * Such a row has no figure and leaves the stub (first) column empty; a row of the table above
 * names its row in that column.
 */
function spanningRowsAbove(reference: readonly string[][], header: Header, floor: number): number {
  let above = 0;
  while (above < MAX_HEADER_ROWS - header.rows && header.start - above - 1 >= floor) {
    const row = reference[header.start - above - 1]!.map(normalizeCell);
    if (row[0] !== '' || !row.some(Boolean) || row.some((c) => c !== '' && FIGURE.test(c))) break;
    above++;
  }
  return above;
}

export function buildTemplate(reference: readonly string[][], firstRowsOfTables: readonly string[][]): EvalTemplate {
  const headers: Header[] = [];
  // The header may sit under a few title rows; the best match wins (the first at equal match).
  let top: (Header & { share: number }) | undefined;
  for (let r = 0; r < Math.min(TITLE_ROWS + 1, reference.length); r++) {
    const h = headerAt(reference, r, firstRowsOfTables);
    if (h && (!top || h.share > top.share + 1e-9)) top = h;
  }
  if (top) {
    headers.push(top);
    // A further header starts another table: it matches an emitted table no header matched yet.
    const matchedTables = new Set([top.table]);
    for (let r = top.start + top.rows; r < reference.length; r++) {
      const h = headerAt(reference, r, firstRowsOfTables, matchedTables);
      if (h) {
        matchedTables.add(h.table);
        const previous = headers[headers.length - 1]!;
        const above = spanningRowsAbove(reference, h, previous.start + previous.rows);
        headers.push({ ...h, start: h.start - above, rows: h.rows + above });
        r += h.rows - 1;
      }
    }
    const tables = headers.map((h, t) => {
      const used = new Set<string>();
      const end = headers[t + 1]?.start ?? reference.length;
      return {
        key: t === 0 ? 'table' : `table_${t + 1}`,
        columns: h.named.map((c) => ({ key: keyOf(c.name, used), name: c.name, data_type: 'string' as const })),
        expectedRows: reference.slice(h.start + h.rows, end).map((r) => h.named.map((c) => r[c.i] ?? '')),
      };
    });
    return { mode: 'header', tables, expectedRows: tables.flatMap((t) => t.expectedRows) };
  }
  const used = new Set<string>();
  const width = Math.max(...reference.map((r) => r.length));
  const columns = Array.from({ length: width }, (_, i) => ({ key: keyOf(`column_${i + 1}`, used), name: `column_${i + 1}`, data_type: 'string' as const }));
  const expectedRows = reference.map((r) => [...r]);
  return { mode: 'position', tables: [{ key: 'table', columns, expectedRows }], expectedRows };
}

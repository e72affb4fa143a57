// Reads stored table rows: pages for the JSON API and a stream for CSV download.
import type pg from 'pg';
import { countFromMasks, type RowFilter } from './row-filter.js';
import type { ValidationIssue } from '../activities/validation/validate.js';

export interface StoredTable {
  id: bigint;
  key: string;
  rowCount: number;
  maskCounts: number[];
  /** per-mask counts of each ROW_BLOCK rows, [block * 8 + mask]; empty for tables loaded before they were kept */
  blockMaskCounts: number[];
}

/** Rows per block of blockMaskCounts: a filtered page starts its index scan at most this far before its first row. */
export const ROW_BLOCK = 4096;

export function storedTableOf(record: { id: bigint; key: string; rowCount: number; maskCounts: number[]; blockMaskCounts: number[] }): StoredTable {
  return { id: record.id, key: record.key, rowCount: record.rowCount, maskCounts: record.maskCounts, blockMaskCounts: record.blockMaskCounts };
}

export interface RowRange {
  /** first row index to scan from, and how many matching rows to skip from there */
  start: number;
  skip: number;
  /** row index the page is sure to end before, or null to scan to the end */
  end: number | null;
}

/**
 * Where the offset-th row matching `masks` lies, from the per-block counts: the page's scan then
 * covers a few blocks instead of every matching row before the offset. Null when there is no such row.
 */
export function rowRange(blockMaskCounts: number[], masks: number[], offset: number, limit: number): RowRange | null {
  let seen = 0;
  let found: RowRange | null = null;
  for (let block = 0; block * 8 < blockMaskCounts.length; block++) {
    let n = 0;
    for (const m of masks) n += blockMaskCounts[block * 8 + m] ?? 0;
    if (!found && seen + n > offset) found = { start: block * ROW_BLOCK, skip: offset - seen, end: null };
    seen += n;
    if (found && seen >= offset + limit) return { ...found, end: (block + 1) * ROW_BLOCK };
  }
  return found;
}

export interface Row {
  index: number;
  values: Record<string, string>;
  validations: Record<string, ValidationIssue[]>;
}

export interface RowQuery {
  filter: RowFilter;
  /** only rows with issues in any of these column keys */
  columns: string[];
}

function whereClause(tableId: bigint, query: RowQuery, params: unknown[]): string {
  params.push(tableId.toString());
  const parts = ['table_id = $1'];
  const masks = query.filter.masks;
  if (masks) {
    // Spelled out so the partial index on flagged rows (mask <> 0) applies when it can.
    if (!masks.includes(0)) parts.push('mask <> 0');
    params.push(masks);
    parts.push(`mask = ANY($${params.length}::smallint[])`);
  }
  if (query.columns.length) {
    if (!parts.includes('mask <> 0')) parts.push('mask <> 0');
    params.push(query.columns);
    parts.push(`issue_columns && $${params.length}::text[]`);
  }
  return parts.join(' AND ');
}

function toRow(columnKeys: string[], r: { row_index: number; values: string[]; validations: Record<string, ValidationIssue[]> | null }): Row {
  const values: Record<string, string> = {};
  columnKeys.forEach((key, i) => (values[key] = r.values[i] ?? ''));
  return { index: r.row_index, values, validations: r.validations ?? {} };
}

export async function countRows(pool: pg.Pool, table: StoredTable, query: RowQuery): Promise<number> {
  if (!query.columns.length) return countFromMasks(table.maskCounts, query.filter.masks);
  const params: unknown[] = [];
  const sql = `SELECT count(*)::int AS n FROM extraction_rows WHERE ${whereClause(table.id, query, params)}`;
  return (await pool.query<{ n: number }>(sql, params)).rows[0]!.n;
}

export async function rowsPage(pool: pg.Pool, table: StoredTable, columnKeys: string[], query: RowQuery, offset: number, limit: number): Promise<Row[]> {
  if (!query.filter.masks && !query.columns.length) {
    // Row indexes are dense, so an unfiltered page is a key range.
    const { rows } = await pool.query(
      'SELECT row_index, values, validations FROM extraction_rows WHERE table_id = $1 AND row_index >= $2 AND row_index < $3 ORDER BY row_index',
      [table.id.toString(), offset, offset + limit],
    );
    return rows.map((r) => toRow(columnKeys, r));
  }
  const params: unknown[] = [];
  let where = whereClause(table.id, query, params);
  let skip = offset;
  if (query.filter.masks && !query.columns.length && table.blockMaskCounts.length) {
    const range = rowRange(table.blockMaskCounts, query.filter.masks, offset, limit);
    if (!range) return [];
    skip = range.skip;
    params.push(range.start);
    where += ` AND row_index >= $${params.length}`;
    if (range.end !== null) {
      params.push(range.end);
      where += ` AND row_index < $${params.length}`;
    }
  }
  params.push(skip, limit);
  // Pick indexes first (index-only on (table_id,row_index) INCLUDE mask), then fetch 100 rows.
  const sql = `WITH page AS (
      SELECT row_index FROM extraction_rows WHERE ${where}
      ORDER BY row_index OFFSET $${params.length - 1} LIMIT $${params.length})
    SELECT r.row_index, r.values, r.validations FROM extraction_rows r JOIN page p ON r.row_index = p.row_index
    WHERE r.table_id = $1 ORDER BY r.row_index`;
  const { rows } = await pool.query(sql, params);
  return rows.map((r) => toRow(columnKeys, r));
}

/** Streams matching rows in pages of `batch`, in row order, for CSV download. */
export async function* streamRows(pool: pg.Pool, table: StoredTable, query: RowQuery, batch = 5000): AsyncGenerator<string[][]> {
  let after = -1;
  const params: unknown[] = [];
  const where = whereClause(table.id, query, params);
  for (;;) {
    const { rows } = await pool.query<{ row_index: number; values: string[] }>(
      `SELECT row_index, values FROM extraction_rows WHERE ${where} AND row_index > $${params.length + 1} ORDER BY row_index LIMIT ${batch}`,
      [...params, after],
    );
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.row_index;
    yield rows.map((r) => r.values);
    if (rows.length < batch) return;
  }
}

// Reconciliation: matches the rows of two tables on key columns and compares other columns.
// Plain and synchronous: the activity reads the rows and stores the result.
import { numericValue } from '../validation/data-types.js';
import type { ColumnPair } from '../../lib/flows.js';

export interface SourceRow {
  extraction_id: string;
  file_name: string;
  /** the row's index in its extraction table */
  index: number;
  values: Record<string, string>;
}

export interface ReconcileOptions {
  matchOn: ColumnPair[];
  compare: ColumnPair[];
  /** numbers within this absolute difference are equal */
  tolerance: number;
}

export interface Difference {
  column_1: string;
  column_2: string;
  value_1: string;
  value_2: string;
  /** value_2 − value_1 when both are numbers */
  difference: number | null;
}

export interface MatchedPair {
  key: Record<string, string>;
  row_1: SourceRow;
  row_2: SourceRow;
}

export interface MismatchedPair extends MatchedPair {
  differences: Difference[];
}

export interface ReconcileSummary {
  rows_1: number;
  rows_2: number;
  matched: number;
  mismatched: number;
  unmatched_1: number;
  unmatched_2: number;
}

export interface ReconcileResult {
  summary: ReconcileSummary;
  matched: MatchedPair[];
  mismatched: MismatchedPair[];
  unmatched_1: SourceRow[];
  unmatched_2: SourceRow[];
}

/** Text as compared: trimmed, inner whitespace as one space, case ignored. */
export function normalizeText(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Equal as numbers within `tolerance` when both read as numbers, else as normalised text. */
export function compareValues(a: string, b: string, tolerance: number): { equal: boolean; difference: number | null } {
  const na = a.trim() ? numericValue(a) : null;
  const nb = b.trim() ? numericValue(b) : null;
  if (na !== null && nb !== null) {
    const difference = Math.round((nb - na) * 1e9) / 1e9;
    return { equal: Math.abs(difference) <= tolerance + 1e-9, difference };
  }
  return { equal: normalizeText(a) === normalizeText(b), difference: null };
}

function keyOf(row: SourceRow, columns: string[]): string | null {
  const parts = columns.map((c) => normalizeText(row.values[c] ?? ''));
  if (parts.some((p) => p === '')) return null;
  return JSON.stringify(parts);
}

/**
 * Pairs each row of side 1 with the first not yet paired row of side 2 having the same key
 * (rows with an empty key cell stay unmatched). Paired rows are `matched` when every compared
 * column agrees, else `mismatched` with their differences.
 */
export function reconcile(side1: SourceRow[], side2: SourceRow[], options: ReconcileOptions): ReconcileResult {
  const keys1 = options.matchOn.map((m) => m.column_1);
  const keys2 = options.matchOn.map((m) => m.column_2);
  const waiting = new Map<string, SourceRow[]>();
  const paired = new Set<SourceRow>();
  for (const row of side2) {
    const key = keyOf(row, keys2);
    if (key === null) continue;
    const list = waiting.get(key);
    if (list) list.push(row);
    else waiting.set(key, [row]);
  }
  const result: ReconcileResult = {
    summary: { rows_1: side1.length, rows_2: side2.length, matched: 0, mismatched: 0, unmatched_1: 0, unmatched_2: 0 },
    matched: [],
    mismatched: [],
    unmatched_1: [],
    unmatched_2: [],
  };
  for (const row of side1) {
    const key = keyOf(row, keys1);
    const other = key === null ? undefined : waiting.get(key)?.shift();
    if (!other) {
      result.unmatched_1.push(row);
      continue;
    }
    paired.add(other);
    const keyValues = Object.fromEntries(keys1.map((k) => [k, row.values[k] ?? '']));
    const differences: Difference[] = [];
    for (const pair of options.compare) {
      const value_1 = row.values[pair.column_1] ?? '';
      const value_2 = other.values[pair.column_2] ?? '';
      const { equal, difference } = compareValues(value_1, value_2, options.tolerance);
      if (!equal) differences.push({ column_1: pair.column_1, column_2: pair.column_2, value_1, value_2, difference });
    }
    if (differences.length) result.mismatched.push({ key: keyValues, row_1: row, row_2: other, differences });
    else result.matched.push({ key: keyValues, row_1: row, row_2: other });
  }
  for (const row of side2) if (!paired.has(row)) result.unmatched_2.push(row);
  result.summary.matched = result.matched.length;
  result.summary.mismatched = result.mismatched.length;
  result.summary.unmatched_1 = result.unmatched_1.length;
  result.summary.unmatched_2 = result.unmatched_2.length;
  return result;
}

/** The result as a step output: counts and at most `limit` entries of each list. */
export function reconcilePreview(result: ReconcileResult, limit: number) {
  const lists = ['matched', 'mismatched', 'unmatched_1', 'unmatched_2'] as const;
  return {
    summary: result.summary,
    ...Object.fromEntries(lists.map((l) => [l, result[l].slice(0, limit)])),
    truncated: lists.some((l) => result[l].length > limit),
  } as { summary: ReconcileSummary; matched: MatchedPair[]; mismatched: MismatchedPair[]; unmatched_1: SourceRow[]; unmatched_2: SourceRow[]; truncated: boolean };
}

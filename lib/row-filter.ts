// Row filters of spec 4.4: all, valid, invalid, error, warn, info (comma-separated, any of them).
// Each row stores a severity mask (1 error, 2 warn, 4 info); a filter is the set of masks it admits.

export const FILTER_VALUES = ['all', 'valid', 'invalid', 'error', 'warn', 'info'] as const;
export type FilterValue = (typeof FILTER_VALUES)[number];

export class InvalidFilterError extends Error {
  constructor(readonly value: string) {
    super(`The parameter 'filter' contains invalid value: ${value}`);
  }
}

export interface RowFilter {
  /** normalised text, echoed in pagination.filter */
  text: string;
  /** masks admitted; null means every row */
  masks: number[] | null;
}

const admits: Record<FilterValue, (mask: number) => boolean> = {
  all: () => true,
  valid: (m) => m === 0,
  invalid: (m) => m !== 0,
  error: (m) => (m & 1) !== 0,
  warn: (m) => (m & 2) !== 0,
  info: (m) => (m & 4) !== 0,
};

export function parseRowFilter(raw: string | undefined): RowFilter {
  const parts = (raw ?? 'all').split(',').map((p) => p.trim().toLowerCase()).filter(Boolean);
  if (parts.length === 0) parts.push('all');
  for (const part of parts) if (!(FILTER_VALUES as readonly string[]).includes(part)) throw new InvalidFilterError(part);
  const values = [...new Set(parts)] as FilterValue[];
  const masks = [0, 1, 2, 3, 4, 5, 6, 7].filter((m) => values.some((v) => admits[v](m)));
  return { text: values.join(','), masks: masks.length === 8 ? null : masks };
}

export function parseColumnList(raw: string | undefined): string[] {
  return [...new Set((raw ?? '').split(',').map((s) => s.trim()).filter(Boolean))];
}

/** Rows matching a mask filter, from the per-mask counts kept for each table. */
export function countFromMasks(maskCounts: number[], masks: number[] | null): number {
  if (!masks) return maskCounts.reduce((a, b) => a + b, 0);
  return masks.reduce((sum, m) => sum + (maskCounts[m] ?? 0), 0);
}

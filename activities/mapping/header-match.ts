// Matches header cells to template columns: by key, name or suggested mapping, ignoring case,
// spacing and punctuation, accepting close spellings.
import type { TemplateColumn } from '../../lib/template.js';

// Abbreviations headers and form labels use, read as the words they stand for: "Invoice no."
// is the template's "Invoice number", "Qty" its "Quantity". ("Nº" is "No" once decomposed.)
const ABBREVIATIONS = new Map([
  ['no', 'number'],
  ['nr', 'number'],
  ['num', 'number'],
  ['qty', 'quantity'],
  ['amt', 'amount'],
  ['desc', 'description'],
  ['ref', 'reference'],
  ['acct', 'account'],
  ['inv', 'invoice'],
  ['cust', 'customer'],
  ['addr', 'address'],
  ['tel', 'telephone'],
  ['dept', 'department'],
]);

export function normalizeLabel(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/#/gu, ' number ')
    .split(/[^\p{L}\p{N}]+/u)
    .map((word) => ABBREVIATIONS.get(word) ?? word)
    .join('');
}

function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Similarity of two labels in [0, 1]: 1 for equal after normalisation, 0 for unrelated. */
export function labelSimilarity(a: string, b: string): number {
  return normalizedSimilarity(normalizeLabel(a), normalizeLabel(b));
}

/** labelSimilarity of labels already normalised (normalizeLabel). */
function normalizedSimilarity(x: string, y: string): number {
  if (!x || !y) return 0;
  if (x === y) return 1;
  const longest = Math.max(x.length, y.length);
  const limit = Math.max(1, Math.floor(longest * 0.25));
  const d = editDistance(x, y, limit);
  if (d <= limit && longest >= 4) return 1 - d / longest;
  // "Unit price (EUR)" against "unit price": containment of a long enough label.
  if (Math.min(x.length, y.length) >= 4 && (x.includes(y) || y.includes(x))) {
    return 0.75 * (Math.min(x.length, y.length) / longest) + 0.2;
  }
  return 0;
}

export function columnLabels(column: Pick<TemplateColumn, 'key' | 'name' | 'suggested_mappings'>): string[] {
  return [column.name, column.key, ...(column.suggested_mappings ?? [])];
}

export const MATCH_THRESHOLD = 0.7;

// A trailing part of a header cell matches a little less than the whole cell.
const GROUPED_SHARE = 0.9;

/**
 * A header cell's normalised forms, each with the share of its similarity that counts. A cell
 * read from a document may hold a group label above its own: a header set on several lines is
 * merged into one cell per column, and a label spanning several columns ("Amount" over "Net"
 * and "Tax") lands in the first of them ("Amount Net"). With `grouped`, the cell's trailing
 * words (its own label, on the lower lines) match too, at GROUPED_SHARE of their similarity.
 */
function cellForms(cell: string, grouped: boolean): { text: string; share: number }[] {
  const forms = [{ text: normalizeLabel(cell), share: 1 }];
  if (!grouped) return forms;
  const words = cell.trim().split(/\s+/u);
  for (let k = 1; k < words.length; k++) forms.push({ text: normalizeLabel(words.slice(k).join(' ')), share: GROUPED_SHARE });
  return forms;
}

type LabelledColumn = Pick<TemplateColumn, 'key' | 'name' | 'suggested_mappings'>;

// Header search matches every leading row of every table against the same columns.
const normalizedLabels = new WeakMap<LabelledColumn, string[]>();
function labelsOf(column: LabelledColumn): string[] {
  let labels = normalizedLabels.get(column);
  if (!labels) normalizedLabels.set(column, (labels = columnLabels(column).map(normalizeLabel)));
  return labels;
}

export interface MatchOptions {
  /**
   * Cells are merged multi-line headers of a table found in a document (PDF, image), which may
   * start with a group label: see cellForms. Spreadsheet headers are matched whole.
   */
  groupedHeaders?: boolean;
}

export interface HeaderMatch {
  /** template column index -> source cell index (or -1 when the column is missing) */
  columnToCell: number[];
  matched: number;
  /** mean similarity over template columns; 0..1 */
  score: number;
}

/** Best one-to-one assignment of header cells to template columns (greedy on similarity). */
export function matchHeader(cells: string[], columns: LabelledColumn[], options: MatchOptions = {}): HeaderMatch {
  const pairs: { col: number; cell: number; sim: number }[] = [];
  const forms = cells.map((cell) => (cell.trim() ? cellForms(cell, options.groupedHeaders ?? false) : []));
  columns.forEach((column, col) => {
    const labels = labelsOf(column);
    forms.forEach((cellForm, cellIndex) => {
      let best = 0;
      for (const label of labels) for (const { text, share } of cellForm) if (share > best) best = Math.max(best, share * normalizedSimilarity(text, label));
      if (best >= MATCH_THRESHOLD) pairs.push({ col, cell: cellIndex, sim: best });
    });
  });
  pairs.sort((p, q) => q.sim - p.sim || p.cell - q.cell);
  const columnToCell = columns.map(() => -1);
  const usedCells = new Set<number>();
  let total = 0;
  let matched = 0;
  for (const { col, cell, sim } of pairs) {
    if (columnToCell[col] !== -1 || usedCells.has(cell)) continue;
    columnToCell[col] = cell;
    usedCells.add(cell);
    total += sim;
    matched++;
  }
  return { columnToCell, matched, score: columns.length ? total / columns.length : 0 };
}

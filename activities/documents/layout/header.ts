// Which leading rows of a table are its header, merged into one row.
import type { PageWord } from './geometry.js';
import { cellText, isValueLike } from './cells.js';
import type { CellRow } from './table.js';

// Stacked column labels run to five or six lines in statistical tables.
const MAX_HEADER_ROWS = 6;

function dominantFont(rows: readonly CellRow[]): string | undefined {
  const count = new Map<string, number>();
  for (const row of rows) for (const cell of row.cells) for (const w of cell) count.set(w.font, (count.get(w.font) ?? 0) + w.text.length);
  let best: string | undefined;
  let n = 0;
  for (const [font, c] of count) if (c > n) [best, n] = [font, c];
  return best;
}

export interface HeaderShape {
  /** Leading rows with one phrase across the table: captions and titles. */
  captions: number;
  /** Rows after the captions that form the header (0 when the table has none). */
  header: number;
}

/** A row holding one phrase that starts in the first column and runs across the next ones. */
function isCaption(row: CellRow, xs: readonly number[]): boolean {
  if (row.cells.filter((c) => c.length).length !== 1) return false;
  const words = row.cells[0]!;
  if (words.length === 0) return false;
  const right = Math.max(...words.map((w) => w.x1));
  const left = Math.min(...words.map((w) => w.x0));
  return (left + right) / 2 > xs[1]!;
}

export function headerShape(rows: readonly CellRow[], xs: readonly number[]): HeaderShape {
  const width = rows[0]?.cells.length ?? 0;
  let captions = 0;
  if (width >= 3) {
    while (captions < Math.min(3, rows.length - 2) && isCaption(rows[captions]!, xs)) captions++;
  }
  const header = headerRowCount(rows.slice(captions));
  // Captions stay rows of the table unless a header follows them.
  return header > 0 ? { captions, header } : { captions: 0, header: headerRowCount(rows) };
}

// A year naming a column: 2014, FY2014, 2013/14, or a range broken over two lines (2013– above 2017).
const YEAR = /^(?:FY\s?)?((?:19|20)\d\d)(?:\s*[-‐–—/]\s*(?:(?:19|20)?\d\d)?)?$/u;
const PLAIN_YEAR = /^(?:FY\s?)?((?:19|20)\d\d)$/u;
// Another period naming a column: a quarter or half (Q1 2023, H2 '22) or a closing date
// (31 Dec 2023, December 31, 2023, 31.12.2023).
const PERIOD =
  /^(?:[QH][1-4]\s?(?:FY\s?)?'?(?:(?:19|20)\d\d|\d\d)|\d{1,2}\s+\p{L}{3,}\.?\s+(?:19|20)\d\d|\p{L}{3,}\.?\s+\d{1,2},?\s+(?:19|20)\d\d|\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d\d)$/u;
// Years a column apart at most this much: 2022 2021 2020, or 2010 2015 2020.
const MAX_YEAR_STEP = 10;
// What a header's stub cell says of the figures: nothing, or their unit ("(in thousands)", "$m").
const UNIT = /^$|^\(.*\)$|\bin (?:thousands|millions|billions)\b|^[$€£¥%]/iu;

/**
 * A row naming its columns by period: figures, but a header. Years run evenly (2014 2013 …
 * 2009); quarters and dates differ from each other, and no other figure stands beside them (a
 * record's dates have its amounts beside them). Its stub cell (the first, or the last on a
 * right-to-left page) is empty or holds a unit (`(in thousands)`): with a label there, the row
 * is a record (`Bridge 2011 2012`, a table of periods) or a section's own row of years under
 * the section's caption (`Volume servers in:`), which stays a row of the table.
 */
function isPeriodRow(row: readonly string[]): boolean {
  if (!UNIT.test(row[0]!) && !UNIT.test(row[row.length - 1]!)) return false;
  if (row.some((t) => isValueLike(t) && !YEAR.test(t) && !PERIOD.test(t))) return false;
  const years = row.flatMap((t) => PLAIN_YEAR.exec(t)?.[1] ?? []).map(Number);
  const step = years.length >= 2 ? years[1]! - years[0]! : 0;
  if (step !== 0 && Math.abs(step) <= MAX_YEAR_STEP && years.every((y, i) => i === 0 || y - years[i - 1]! === step)) return true;
  const periods = row.filter((t) => PERIOD.test(t));
  return periods.length >= 2 && new Set(periods).size === periods.length;
}

/** Number of leading rows that form the header (0 when the table has none). */
export function headerRowCount(rows: readonly CellRow[]): number {
  if (rows.length < 2) return 0;
  const texts = rows.map((r) => r.cells.map(cellText));
  // Under a row of periods, rows of text are the body's section labels ("Outlays:"); rows of
  // years and ranges alone are more of the header (ranges set lower than the years beside them).
  let years = false;
  const namesColumns = (r: number): boolean => {
    const row = texts[r]!;
    if (isPeriodRow(row) || (years && row.some((t) => t) && row.every((t) => t === '' || YEAR.test(t)))) return (years = true);
    return !years && row.every((t) => !isValueLike(t)) && row.some((t) => t);
  };
  let prefix = 0;
  while (prefix < Math.min(MAX_HEADER_ROWS, rows.length - 1) && namesColumns(prefix)) prefix++;
  if (prefix === 0) return 0;
  // Labels above a column that holds values below them.
  const labelled = new Set<number>();
  for (let r = 0; r < prefix; r++) texts[r]!.forEach((t, c) => t && labelled.add(c));
  // Only where values fill the body do they mark where the header ends: in a table of text with
  // a figure here and there, the rows of text above the first figure are rows too.
  const withValues = texts.slice(prefix).filter((row) => row.some((t, c) => labelled.has(c) && isValueLike(t))).length;
  if (withValues > 0 && 2 * withValues >= texts.length - prefix) return prefix;
  // A text-only table: the header is the first row when it is set in another font (bold).
  const headFont = dominantFont(rows.slice(0, 1));
  const bodyFont = dominantFont(rows.slice(1));
  if (headFont !== undefined && bodyFont !== undefined && headFont !== bodyFont && headFont !== '') return 1;
  return 0;
}

/** Merges the first `count` rows into one row (cell texts joined with a space). */
export function mergeRows(rows: readonly CellRow[], count: number): CellRow {
  const width = rows[0]?.cells.length ?? 0;
  const cells: PageWord[][] = Array.from({ length: width }, () => []);
  for (let r = 0; r < count; r++) rows[r]!.cells.forEach((words, c) => cells[c]!.push(...words));
  return { cells, top: rows[0]?.top ?? 0, bottom: rows[Math.max(0, count - 1)]?.bottom ?? 0 };
}

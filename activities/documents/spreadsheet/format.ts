// Renders spreadsheet cell values as Excel shows them, so the mapping step sees "3/1/24",
// "1,234.50" or "12%" exactly as the person who filled in the sheet did. Number formats go
// through SheetJS's SSF, which implements Excel's format language.
import * as XLSX from '@e965/xlsx';

interface SsfOptions {
  date1904?: boolean;
}

/** The part of SheetJS's SSF used here (the package types it as `any`). */
interface Ssf {
  format(format: string | number, value: number, options?: SsfOptions): string;
  is_date(format: string): boolean;
  get_table(): Record<number, string | undefined>;
}

const ssf = XLSX.SSF as Ssf;
const builtInFormats = ssf.get_table();

/** The format code of one of Excel's built-in number formats (0–49), or General. */
export function builtInNumberFormat(id: number): string {
  return builtInFormats[id] ?? 'General';
}

export function isGeneralFormat(format: string): boolean {
  return format === '' || format.toLowerCase() === 'general';
}

export function isDateFormat(format: string): boolean {
  if (isGeneralFormat(format)) return false;
  try {
    return ssf.is_date(format);
  } catch {
    return false;
  }
}

/**
 * A number as Excel would display it under `format`. `date1904` is the workbook's date system
 * (Mac workbooks count days from 1904), which shifts every date serial.
 */
export function formatNumber(value: number, format: string, date1904 = false): string {
  if (!Number.isFinite(value)) return String(value);
  if (isGeneralFormat(format)) return formatGeneral(value);
  try {
    // Alignment padding (`_)`, `* `) is only there to line up a column on screen.
    const text = ssf.format(format, value, date1904 ? { date1904 } : undefined).trim();
    // SSF gives nothing where Excel shows ##### (a negative date, say): the number says more.
    return text === '' ? formatGeneral(value) : text;
  } catch {
    return formatGeneral(value);
  }
}

/**
 * Excel's General format without its column-width rounding: the shortest form of the number
 * at Excel's 15 significant digits, so 0.1+0.2 reads 0.3 and a 14-digit ID stays whole.
 */
export function formatGeneral(value: number): string {
  const rounded = Number(value.toPrecision(15));
  const text = String(Object.is(rounded, -0) ? 0 : rounded);
  // JavaScript writes 1e-7 and 1e+21; Excel's General writes 1E-07 and 1E+21.
  if (text.includes('e')) return ssf.format('General', rounded);
  return text;
}

export function formatBoolean(value: boolean): string {
  return value ? 'TRUE' : 'FALSE';
}

const MS_PER_DAY = 86_400_000;
// Day 0 of the 1900 date system is 1899-12-30 once Excel's phantom 1900-02-29 is accounted for.
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** The Excel serial of a date whose wall-clock time is in its UTC fields (as XLSX stores them). */
export function dateToSerial(date: Date, date1904 = false): number {
  return (date.getTime() - (date1904 ? EPOCH_1904 : EPOCH_1900)) / MS_PER_DAY;
}

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
  const plainDate = plainDateFormat(format);
  if (plainDate && Number.isInteger(value) && value >= FIRST_REAL_1900_SERIAL && value < lastSerial(date1904)) {
    return plainDate(value, date1904);
  }
  const text = formatWithSsf(value, format, date1904) ?? formatWithSsf(value, escapeDateDots(format), date1904);
  // SSF gives nothing where Excel shows ##### (a negative date, say): the number says more.
  return text === undefined || text === '' ? formatGeneral(value) : text;
}

function formatWithSsf(value: number, format: string | undefined, date1904: boolean): string | undefined {
  if (format === undefined) return undefined;
  try {
    // Alignment padding (`_)`, `* `) is only there to line up a column on screen.
    return ssf.format(format, value, date1904 ? { date1904 } : undefined).trim();
  } catch {
    return undefined;
  }
}

/**
 * SSF reads every unescaped dot as a decimal point and rejects dd.mm.yyyy hh:mm, a format
 * German workbooks are full of; Excel treats those dots as literal text, so escape them.
 */
function escapeDateDots(format: string): string | undefined {
  if (!/[dmyhs]/i.test(format) || !/(^|[^\\])\./.test(format)) return undefined;
  return format.replace(/(^|[^\\])\./g, '$1\\.');
}

/**
 * Excel's General format without its column-width rounding: the shortest form of the number
 * at Excel's 15 significant digits, so 0.1+0.2 reads 0.3 and a 14-digit ID stays whole.
 */
export function formatGeneral(value: number): string {
  // Fast paths (most cells): JavaScript's shortest form already has at most 15 digits.
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  const shortest = String(value);
  if (shortest.length <= 15 && !shortest.includes('e')) return shortest;
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

// Date-only formats such as yyyy-mm-dd or d.m.yy are the most common non-General formats and
// SSF's general machinery costs about a microsecond per cell, so whole-day serials under them
// are formatted here; anything with time, names, text or locale codes still goes to SSF.
type DateFormatter = (serial: number, date1904: boolean) => string;

// Serial 60 is Excel's phantom 1900-02-29; from 61 on, serials map onto real days.
const FIRST_REAL_1900_SERIAL = 61;
const LAST_SERIAL_1900 = 2958466; // 10000-01-01, past which Excel shows #####
const DAYS_1900_TO_1904 = 1462;

function lastSerial(date1904: boolean): number {
  return date1904 ? LAST_SERIAL_1900 - DAYS_1900_TO_1904 : LAST_SERIAL_1900;
}
const plainDateFormats = new Map<string, DateFormatter | undefined>();

function plainDateFormat(format: string): DateFormatter | undefined {
  if (plainDateFormats.has(format)) return plainDateFormats.get(format);
  const formatter = compilePlainDate(format);
  if (plainDateFormats.size < 1000) plainDateFormats.set(format, formatter);
  return formatter;
}

function compilePlainDate(format: string): DateFormatter | undefined {
  // A locale prefix ([$-407]) and an empty text section (;@) do not change how a date shows.
  const code = format.replace(/^\[\$-[0-9A-Fa-f]+\]/, '').replace(/;@$/, '');
  const parts: ((date: Date) => string)[] = [];
  let sawDatePart = false;
  for (let i = 0; i < code.length; ) {
    const char = code.charAt(i);
    const lower = char.toLowerCase();
    if (lower === 'y' || lower === 'm' || lower === 'd') {
      let end = i;
      while (end < code.length && code.charAt(end).toLowerCase() === lower) end++;
      const part = datePart(lower, end - i);
      if (!part) return undefined; // mmm (month names), ddd (weekdays), yyy: left to SSF
      parts.push(part);
      sawDatePart = true;
      i = end;
    } else if (char === '\\' && i + 1 < code.length) {
      const literal = code.charAt(i + 1);
      parts.push(() => literal);
      i += 2;
    } else if (char === '"') {
      const close = code.indexOf('"', i + 1);
      if (close === -1) return undefined;
      const literal = code.slice(i + 1, close);
      parts.push(() => literal);
      i = close + 1;
    } else if ('-/., '.includes(char)) {
      parts.push(() => char);
      i++;
    } else {
      return undefined;
    }
  }
  if (!sawDatePart) return undefined;
  return (serial, date1904) => {
    const date = new Date((date1904 ? EPOCH_1904 : EPOCH_1900) + serial * MS_PER_DAY);
    let text = '';
    for (const part of parts) text += part(date);
    return text;
  };
}

function datePart(letter: string, length: number): ((date: Date) => string) | undefined {
  if (letter === 'y' && length === 4) return (d) => String(d.getUTCFullYear()).padStart(4, '0');
  if (letter === 'y' && length === 2) return (d) => String(d.getUTCFullYear() % 100).padStart(2, '0');
  if (letter === 'm' && length === 2) return (d) => String(d.getUTCMonth() + 1).padStart(2, '0');
  if (letter === 'm' && length === 1) return (d) => String(d.getUTCMonth() + 1);
  if (letter === 'd' && length === 2) return (d) => String(d.getUTCDate()).padStart(2, '0');
  if (letter === 'd' && length === 1) return (d) => String(d.getUTCDate());
  return undefined;
}

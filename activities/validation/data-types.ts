// Whether a cell's text reads as its column's data type. Values stay strings; this only judges.
import type { DataType } from '../../lib/template.js';

export interface TypeOptions {
  decimalSeparator?: '.' | ',';
  /** e.g. DD/MM/YYYY; when given, dates must follow it. */
  dateFormat?: string;
}

const CURRENCY_SYMBOLS = /\b(?:US|A|C|NZ|HK|S)\$|[$€£¥₹₽₩₪₫₺₴₦฿]|\b(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|INR|CNY|SEK|NOK|DKK|PLN|BRL|MXN|ZAR)\b/gi;

// Minus signs as typeset: U+2212 and the en dash (full-width forms become "-" under NFKC).
const MINUS_SIGNS = /^[\u2212\u2013]/u;
// Japanese accounts mark a negative amount with a triangle: △1,200 or ▲1,200.
const NEGATIVE_TRIANGLE = /^[△▲]/u;

/**
 * Parses "1,234.50", "(12.00)", "-3", "−3", "△1,200", "１２３" (full width), "1.234,50" (with
 * decimalSeparator ','); null when not a number.
 */
export function parseNumber(text: string, options: TypeOptions = {}): number | null {
  let s = text.normalize('NFKC').trim().replace(/[\s\u00a0']/g, '').replace(MINUS_SIGNS, '-');
  if (!s) return null;
  let negative = false;
  if (NEGATIVE_TRIANGLE.test(s)) {
    negative = true;
    s = s.slice(1);
  }
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (s.endsWith('-')) {
    if (negative) return null;
    negative = true;
    s = s.slice(0, -1);
  }
  // one way of saying negative: "(-5)" and "△-5" are typos, not -5 or 5
  if (negative && /^[+-]/.test(s)) return null;
  const decimal = options.decimalSeparator ?? guessDecimal(s);
  const group = decimal === ',' ? '.' : ',';
  if (decimal === ',') {
    if (!/^[+-]?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?$/.test(s)) return null;
  } else if (!/^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?$/.test(s) || s === '' || /^[+-]?$/.test(s)) {
    return null;
  }
  const n = Number(s.split(group).join('').replace(',', '.'));
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

function guessDecimal(s: string): '.' | ',' {
  // "1.234,56" or "12,5" read as comma decimals; "1,234" stays a thousands separator.
  if (/^\d{1,3}(\.\d{3})+,\d+$/.test(s) || /^[+-]?\d+,\d{1,2}$/.test(s)) return ',';
  return '.';
}

const MONTHS = 'jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december';
const DATE_PATTERNS: RegExp[] = [
  /^\d{4}-\d{1,2}-\d{1,2}$/,
  /^\d{4}\/\d{1,2}\/\d{1,2}$/,
  /^\d{1,2}[/.-]\d{1,2}[/.-](\d{2}|\d{4})$/,
  new RegExp(`^\\d{1,2}[ -](${MONTHS})\\.?[ -,]*\\d{2,4}$`, 'i'),
  new RegExp(`^(${MONTHS})\\.? \\d{1,2},? \\d{4}$`, 'i'),
  new RegExp(`^(${MONTHS})\\.?[ -]\\d{4}$`, 'i'),
];

function validDayMonth(text: string, options: TypeOptions): boolean {
  const m = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})$/.exec(text);
  if (!m) return true;
  const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (m[1]!.length === 4) return b >= 1 && b <= 12 && c >= 1 && c <= 31;
  const format = options.dateFormat?.toUpperCase();
  if (format?.startsWith('DD')) return a >= 1 && a <= 31 && b >= 1 && b <= 12;
  if (format?.startsWith('MM')) return a >= 1 && a <= 12 && b >= 1 && b <= 31;
  // Either day-first or month-first must make sense.
  return (a >= 1 && a <= 31 && b >= 1 && b <= 12) || (a >= 1 && a <= 12 && b >= 1 && b <= 31);
}

export function isDate(text: string, options: TypeOptions = {}): boolean {
  const s = text.trim();
  return DATE_PATTERNS.some((p) => p.test(s)) && validDayMonth(s, options);
}

export function isDateTime(text: string, options: TypeOptions = {}): boolean {
  const s = text.trim();
  const m = /^(.+?)[T ](\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\s*(am|pm)?\s*(Z|[+-]\d{2}:?\d{2})?)$/i.exec(s);
  if (m) return isDate(m[1]!, options);
  return isDate(s, options);
}

const BOOLEANS = new Set(['true', 'false', 'yes', 'no', 'y', 'n', '1', '0', 'on', 'off', 'x', '✓', '✔']);

// Plain forms that need no further parsing: most cells of large files take these exits.
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** -?\d{1,15} with an optional .\d{1,15}, by hand: it runs for millions of cells, a regex call costs more. */
export function isPlainNumber(s: string, allowFraction: boolean): boolean {
  const n = s.length;
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  const start = i;
  while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
  if (i === start || i - start > 15) return false;
  if (i === n) return true;
  if (!allowFraction || s.charCodeAt(i) !== 46) return false;
  const fraction = ++i;
  while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
  return i === n && i > fraction && i - fraction <= 15;
}

function plainMatch(type: DataType, s: string, options: TypeOptions): boolean {
  switch (type) {
    case 'integer':
      return isPlainNumber(s, false);
    case 'number':
    case 'currency':
      return options.decimalSeparator !== ',' && isPlainNumber(s, true);
    case 'date': {
      const m = ISO_DATE.exec(s);
      if (!m) return false;
      const month = Number(m[2]);
      const day = Number(m[3]);
      return month >= 1 && month <= 12 && day >= 1 && day <= 31;
    }
    default:
      return false;
  }
}

/** True when `text` (non-empty) reads as `type`. Empty cells are the `required` rule's business. */
export function matchesType(type: DataType, text: string, options: TypeOptions = {}): boolean {
  if (plainMatch(type, text, options)) return true;
  const s = text.trim();
  if (!s) return true;
  switch (type) {
    case 'string':
      return true;
    case 'integer': {
      const n = parseNumber(s, options);
      return n !== null && Number.isInteger(n);
    }
    case 'number':
      return parseNumber(s, options) !== null;
    case 'currency':
      return parseNumber(s.replace(CURRENCY_SYMBOLS, ''), options) !== null;
    case 'percent':
      return parseNumber(s.replace(/%$/, '').trim(), options) !== null;
    case 'date':
      return isDate(s, options);
    case 'datetime':
      return isDateTime(s, options);
    case 'boolean':
      return BOOLEANS.has(s.toLowerCase());
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(s);
    case 'url':
      return /^(https?:\/\/)?([\w-]+\.)+[\w-]{2,}(:\d+)?(\/\S*)?$/i.test(s);
    case 'phone':
      return /^\+?[\d\s().-]{6,20}$/.test(s) && s.replace(/\D/g, '').length >= 6;
  }
}

/** A number for min/max rules: plain numbers, currencies and percents alike. */
export function numericValue(text: string, options: TypeOptions = {}): number | null {
  return parseNumber(text.replace(CURRENCY_SYMBOLS, '').replace(/%$/, '').trim(), options);
}

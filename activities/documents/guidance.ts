// Reads `key: value` hint lines from an extraction's guidance; other text is kept but ignored.
//   pages: 1-3, 5          only these pages of a PDF or TIFF
//   date_format: DD/MM/YYYY how ambiguous dates are read when validating
//   decimal_separator: ,    numbers like 1.234,50
//   table_start.<table_key>: Text   the table begins after the line holding this text
//   language: spa+eng       tesseract languages for scans and images (installed on the worker)
//   ocr: always             read every page of a PDF by OCR, not by its text layer
import { parseLanguageList } from '../../lib/languages.js';
import type { Guidance } from './types.js';

function parsePages(value: string): number[] | undefined {
  const pages = new Set<number>();
  for (const part of value.split(/[,\s]+/).filter(Boolean)) {
    const range = /^(\d+)\s*-\s*(\d+)$/.exec(part);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      for (let p = Math.min(a, b); p <= Math.max(a, b) && pages.size < 10_000; p++) pages.add(p);
    } else if (/^\d+$/.test(part)) pages.add(Number(part));
  }
  const list = [...pages].filter((p) => p >= 1).sort((a, b) => a - b);
  return list.length ? list : undefined;
}

export function parseGuidance(text: string | null | undefined): Guidance {
  const guidance: Guidance = { tableStart: {} };
  for (const line of (text ?? '').split(/\r?\n/)) {
    const m = /^\s*([a-z_][a-z0-9_.]*)\s*:\s*(.+?)\s*$/i.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = m[2]!;
    if (key === 'pages') guidance.pages = parsePages(value);
    else if (key === 'date_format') guidance.dateFormat = value;
    else if (key === 'decimal_separator') {
      if (value === ',' || /^comma$/i.test(value)) guidance.decimalSeparator = ',';
      else if (value === '.' || /^(dot|period|point)$/i.test(value)) guidance.decimalSeparator = '.';
    } else if (key.startsWith('table_start.')) guidance.tableStart[key.slice('table_start.'.length)] = value;
    else if (key === 'table_start') guidance.tableStart['*'] = value;
    else if (key === 'language' || key === 'languages') guidance.languages = parseLanguageList(value);
    else if (key === 'ocr' && /^(always|auto)$/i.test(value)) guidance.ocr = value.toLowerCase() as 'always' | 'auto';
  }
  return guidance;
}

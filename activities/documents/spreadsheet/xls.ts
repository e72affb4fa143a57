// Legacy and uncommon workbooks (XLS, XLSB, ODS, SpreadsheetML 2003, HTML tables saved as .xls)
// through SheetJS, which reads a file whole. That is acceptable here: XLS caps a sheet at
// 65,536 rows, and the others are rare; a size limit keeps a huge file from exhausting memory.
import { readFile, stat } from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import type { SheetSource } from '../types.js';
import { asSheetJsError, excelError } from './excel-error.js';
import { builtInNumberFormat, formatBoolean, formatNumber } from './format.js';

export const XLS_BATCH_ROWS = 4000;
/** SheetJS needs several times a file's size in memory; beyond this, refuse politely. */
export const MAX_WHOLE_WORKBOOK_BYTES = 200 * 1024 * 1024;

// Excel's error codes as stored in BIFF, for error cells SheetJS left without text.
const ERROR_TEXT: Record<number, string> = {
  0x00: '#NULL!',
  0x07: '#DIV/0!',
  0x0f: '#VALUE!',
  0x17: '#REF!',
  0x1d: '#NAME?',
  0x24: '#NUM!',
  0x2a: '#N/A',
  0x2b: '#GETTING_DATA',
};

let codepagesLoaded: Promise<void> | undefined;

// Old XLS files store text in Windows code pages; SheetJS decodes them only with this table
// (about 1 MB of code, so loaded on the first workbook that needs SheetJS, not at startup).
function loadCodepages(): Promise<void> {
  codepagesLoaded ??= import('@e965/xlsx/dist/cpexcel.full.mjs').then((codepages) => XLSX.set_cptable(codepages));
  return codepagesLoaded;
}

export async function openWithSheetJs(path: string): Promise<SheetSource[]> {
  const { size } = await stat(path);
  if (size > MAX_WHOLE_WORKBOOK_BYTES) {
    throw excelError(`this kind of workbook can be read only up to ${MAX_WHOLE_WORKBOOK_BYTES / 1024 / 1024} MB`);
  }
  await loadCodepages();
  const data = await readFile(path);
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(data, {
      type: 'buffer',
      dense: true,
      cellNF: true,
      cellText: true,
      cellDates: false,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
    });
  } catch (error) {
    throw asSheetJsError(error);
  }
  const date1904 = book.Workbook?.WBProps?.date1904 === true;
  return book.SheetNames.map((name) => {
    const sheet = book.Sheets[name];
    return { name, batches: () => sheetBatches(sheet, date1904) };
  });
}

async function* sheetBatches(sheet: XLSX.WorkSheet | undefined, date1904: boolean): AsyncGenerator<string[][]> {
  let batch: string[][] = [];
  for (const row of sheetRows(sheet, date1904)) {
    batch.push(row);
    if (batch.length === XLS_BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Rows of display strings, with the conventions of the XLSX reader (see xlsx-sheet.ts). */
export function* sheetRows(sheet: XLSX.WorkSheet | undefined, date1904: boolean): Generator<string[]> {
  const data = sheet?.['!data'];
  if (!data) return;
  for (const cells of data) {
    if (!cells) continue;
    const row: string[] = [];
    let width = 0;
    for (let c = 0; c < cells.length; c++) {
      const text = renderCell(cells[c], date1904);
      row.push(text);
      if (text !== '') width = c + 1;
    }
    if (width > 0) {
      row.length = width;
      yield row;
    }
  }
}

/** A SheetJS cell as Excel shows it. */
export function renderCell(cell: XLSX.CellObject | undefined, date1904: boolean): string {
  if (!cell) return '';
  const { v } = cell;
  switch (cell.t) {
    case 'n':
      return typeof v === 'number' ? formatNumber(v, formatCode(cell.z), date1904) : (cell.w ?? '');
    case 's':
      return typeof v === 'string' ? v : (cell.w ?? '');
    case 'b':
      return formatBoolean(v === true);
    case 'e':
      return cell.w ?? (typeof v === 'number' ? (ERROR_TEXT[v] ?? '#VALUE!') : '#VALUE!');
    default:
      // 'd' (dates some formats carry as Date objects) and anything new: SheetJS's own text.
      return cell.w ?? (v === undefined || v === null ? '' : String(v));
  }
}

function formatCode(format: XLSX.NumberFormat | undefined): string {
  if (format === undefined) return 'General';
  return typeof format === 'number' ? builtInNumberFormat(format) : format;
}

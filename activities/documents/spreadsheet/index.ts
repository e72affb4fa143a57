// Entry point of the spreadsheet readers: a file on disk becomes one SheetSource per sheet.
// For Excel files the bytes decide the reader, not the extension: a workbook saved as .xls but
// really XLSX (or a CSV named .xls, as many web exports are) still reads.
import { open } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { SheetSource } from '../types.js';
import { openCsv, type ByteSource } from './csv.js';
import { excelError } from './excel-error.js';
import { openWithSheetJs } from './xls.js';
import { openXlsx } from './xlsx.js';

export { CsvParser } from './csv-parser.js';
export { openCsv, readCsvBatches, sniffCsvFormat, type ByteSource, type CsvFormat } from './csv.js';
export { detectDelimiter } from './delimiter.js';

export async function openSpreadsheet(
  path: string,
  kind: 'csv' | 'tsv' | 'excel',
  extension: string,
): Promise<SheetSource[]> {
  const name = sheetNameFromPath(path, extension);
  const head = await readHead(path, 4096);
  if (kind === 'excel') return openExcel(path, name, head);
  // A workbook uploaded under a .csv name is still a workbook.
  const bytes = classifyWorkbookBytes(head);
  if (bytes === 'zip' || bytes === 'sheetjs-binary') return openExcel(path, name, head);
  return [await openCsv(path, name, kind === 'tsv' ? '\t' : undefined)];
}

/**
 * A CSV/TSV read straight from its bytes (e.g. an S3 object, never copied to disk), or null when
 * the bytes are a workbook after all: workbooks need random access, so the caller opens a local copy.
 */
export async function openTextSpreadsheet(source: ByteSource, kind: 'csv' | 'tsv', name: string): Promise<SheetSource[] | null> {
  const bytes = classifyWorkbookBytes(await source.head(4096));
  if (bytes === 'zip' || bytes === 'sheetjs-binary') return null;
  return [await openCsv(source, name, kind === 'tsv' ? '\t' : undefined)];
}

async function openExcel(path: string, name: string, head: Uint8Array): Promise<SheetSource[]> {
  switch (classifyWorkbookBytes(head)) {
    case 'zip':
      // XLSB and ODS are zips too; SheetJS reads those.
      return (await openXlsx(path)) ?? openWithSheetJs(path);
    case 'sheetjs-binary':
    case 'sheetjs-markup':
      return openWithSheetJs(path);
    case 'text':
      return [await openCsv(path, name)];
    case 'empty':
      throw excelError('the file is empty');
    case 'other':
      throw excelError('it is not an Excel workbook');
  }
}

export type WorkbookBytes = 'zip' | 'sheetjs-binary' | 'sheetjs-markup' | 'text' | 'empty' | 'other';

/** What a file's first bytes say it is. */
export function classifyWorkbookBytes(head: Uint8Array): WorkbookBytes {
  if (head.length === 0) return 'empty';
  const startsWith = (...bytes: number[]): boolean => bytes.every((b, k) => head[k] === b);
  if (startsWith(0x50, 0x4b, 0x03, 0x04)) return 'zip';
  // OLE2 compound file: XLS (and password-protected XLSX, which SheetJS reports as such).
  if (startsWith(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return 'sheetjs-binary';
  // BIFF2–BIFF4 worksheets stored bare, without the compound file around them.
  const biffVersion = head[1] ?? -1;
  if (head[0] === 0x09 && [0x00, 0x02, 0x04].includes(biffVersion) && (head[2] === 0x04 || head[2] === 0x06) && head[3] === 0) {
    return 'sheetjs-binary';
  }
  if (startsWith(0x25, 0x50, 0x44, 0x46)) return 'other'; // %PDF
  const text = new TextDecoder('utf-8').decode(head).replace(/^\uFEFF/, '').trimStart();
  // HTML tables and SpreadsheetML 2003, both commonly saved with an .xls name.
  if (text.startsWith('<')) return 'sheetjs-markup';
  if (looksLikeText(head)) return 'text';
  return 'other';
}

function looksLikeText(head: Uint8Array): boolean {
  // UTF-16 text (Excel's "Unicode text" export) is full of NULs but has a byte order mark.
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20)) control++;
  }
  return control <= head.length / 100;
}

async function readHead(path: string, length: number): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A CSV's single sheet is named after its file, without the extension. */
export function sheetNameFromPath(path: string, extension: string): string {
  const file = basename(path);
  const dotted = extension === '' || extension.startsWith('.') ? extension : `.${extension}`;
  const withoutExtension =
    dotted !== '' && file.toLowerCase().endsWith(dotted.toLowerCase())
      ? file.slice(0, -dotted.length)
      : file.slice(0, file.length - extname(file).length);
  return withoutExtension === '' ? file : withoutExtension;
}

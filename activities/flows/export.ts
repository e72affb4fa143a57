// Writes tables to one XLSX workbook, a sheet per table, streamed (rows are never all in memory).
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';

export interface SheetSource {
  title: string;
  header: string[];
  /** batches of rows, each row in header order */
  rows: () => AsyncIterable<string[][]>;
}

export interface WrittenSheet {
  sheet_id: number;
  title: string;
  rows: number;
}

/** Excel's sheet-name rules: at most 31 characters, none of []:*?/\, unique ignoring case. */
export function sheetTitle(raw: string, used: Set<string>): string {
  const base = raw.replace(/[[\]:*?/\\]/g, ' ').replace(/\s+/g, ' ').trim().replace(/^'+|'+$/g, '') || 'Sheet';
  let title = base.slice(0, 31);
  for (let n = 2; used.has(title.toLowerCase()); n++) {
    const suffix = ` (${n})`;
    title = `${base.slice(0, 31 - suffix.length)}${suffix}`;
  }
  used.add(title.toLowerCase());
  return title;
}

export async function writeWorkbook(sheets: SheetSource[], out: Writable, onProgress: () => void = () => {}): Promise<WrittenSheet[]> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Distill';
  const used = new Set<string>();
  const written: WrittenSheet[] = [];
  for (const source of sheets) {
    const title = sheetTitle(source.title, used);
    const sheet = workbook.addWorksheet(title);
    const header = sheet.addRow(source.header);
    header.font = { bold: true };
    header.commit();
    let rows = 0;
    for await (const batch of source.rows()) {
      for (const row of batch) {
        sheet.addRow(row).commit();
        rows++;
      }
      onProgress();
    }
    sheet.commit();
    written.push({ sheet_id: sheet.id, title, rows });
  }
  await workbook.commit();
  return written;
}

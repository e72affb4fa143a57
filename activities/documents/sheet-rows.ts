// A sheet's rows in memory: for samples and for documents, whose detected tables are small.
import type { SheetSource } from './types.js';

/** The sheet's first `limit` rows (all by default); stops reading as soon as it has them. */
export async function sheetRows(sheet: SheetSource, limit = Infinity): Promise<string[][]> {
  const rows: string[][] = [];
  if (limit <= 0) return rows;
  for await (const batch of sheet.batches()) {
    for (const row of batch) {
      rows.push(row);
      if (rows.length >= limit) return rows;
    }
  }
  return rows;
}

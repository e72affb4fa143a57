// Opens a stored document of any supported kind as the common document model.
// Readers load on first use: a worker that only sees spreadsheets never loads pdf.js.
import { isPaged, type DocumentContent, type FileKind, type Guidance, type OcrSettings, type ProgressReporter, type ReadLimit } from './types.js';

export async function openDocument(
  path: string,
  kind: FileKind,
  extension: string,
  options: { guidance: Guidance; onProgress?: ProgressReporter; ocrSettings?: OcrSettings; limit?: ReadLimit },
): Promise<DocumentContent> {
  if (isPaged(kind)) {
    const { readPagedDocument } = await import('./pages.js');
    return readPagedDocument(path, kind, options);
  }
  const { openSpreadsheet } = await import('./spreadsheet/index.js');
  const sheets = await openSpreadsheet(path, kind, extension);
  return { kind, pageCount: sheets.length, sheets, lines: [] };
}

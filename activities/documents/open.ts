// Opens a stored document of any supported kind as the common document model.
// Readers load on first use: a worker that only sees spreadsheets never loads pdf.js.
import { isPaged, type DocumentContent, type FileKind, type Guidance, type OcrSettings, type ProgressReporter, type ReadLimit } from './types.js';

// Each import() of a module already loaded still asks the module loader (under tsx, a round trip
// to its hooks thread): the promise is kept, so only the first document of a kind pays for it.
let pagedReader: Promise<typeof import('./pages.js')> | undefined;
let spreadsheetReader: Promise<typeof import('./spreadsheet/index.js')> | undefined;

/** The spreadsheet readers, loaded on first use. */
export const spreadsheetReaders = () => (spreadsheetReader ??= import('./spreadsheet/index.js'));

export async function openDocument(
  path: string,
  kind: FileKind,
  extension: string,
  options: { guidance: Guidance; onProgress?: ProgressReporter; ocrSettings?: OcrSettings; limit?: ReadLimit },
): Promise<DocumentContent> {
  if (isPaged(kind)) {
    const { readPagedDocument } = await (pagedReader ??= import('./pages.js'));
    return readPagedDocument(path, kind, options);
  }
  const { openSpreadsheet } = await spreadsheetReaders();
  const sheets = await openSpreadsheet(path, kind, extension);
  return { kind, pageCount: sheets.length, sheets, lines: [] };
}

// Opens a stored document of any supported kind as the common document model.
import { openSpreadsheet } from './spreadsheet/index.js';
import { readPagedDocument } from './pages.js';
import type { DocumentContent, FileKind, Guidance, ProgressReporter } from './types.js';

export async function openDocument(
  path: string,
  kind: FileKind,
  extension: string,
  options: { guidance: Guidance; onProgress?: ProgressReporter },
): Promise<DocumentContent> {
  if (kind === 'pdf' || kind === 'image') return readPagedDocument(path, kind, options);
  const sheets = await openSpreadsheet(path, kind, extension);
  return { kind, pageCount: sheets.length, sheets, lines: [] };
}

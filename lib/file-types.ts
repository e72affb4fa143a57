// Supported upload types (spec 4.1) and how each is reported (spec 2.1 file_type).
import type { FileKind } from '../activities/documents/types.js';

export interface FileType {
  key: FileKind;
  extension: string;
  mimeType: string;
}

const TYPES: Record<string, Omit<FileType, 'extension'>> = {
  pdf: { key: 'pdf', mimeType: 'application/pdf' },
  xlsx: { key: 'excel', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  xls: { key: 'excel', mimeType: 'application/vnd.ms-excel' },
  csv: { key: 'csv', mimeType: 'text/csv' },
  tsv: { key: 'tsv', mimeType: 'text/tab-separated-values' },
  jpg: { key: 'image', mimeType: 'image/jpeg' },
  jpeg: { key: 'image', mimeType: 'image/jpeg' },
  png: { key: 'image', mimeType: 'image/png' },
  webp: { key: 'image', mimeType: 'image/webp' },
  tiff: { key: 'image', mimeType: 'image/tiff' },
  tif: { key: 'image', mimeType: 'image/tiff' },
};

/** The list the spec names; .jpeg and .tif are accepted as their usual spellings too. */
export const SUPPORTED_EXTENSIONS = ['pdf', 'xlsx', 'xls', 'csv', 'tsv', 'jpg', 'png', 'webp', 'tiff'];

export const FILE_KINDS: FileKind[] = ['pdf', 'excel', 'csv', 'tsv', 'image'];

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot + 1).toLowerCase() : '';
}

export function fileTypeOf(fileName: string): FileType | null {
  const extension = extensionOf(fileName);
  const type = TYPES[extension];
  return type ? { ...type, extension } : null;
}

/** A template's or file field's `file_types` entry (a kind or an extension) as a kind. */
export function kindOf(entry: string): FileKind | null {
  const e = entry.toLowerCase().replace(/^\./, '');
  if ((FILE_KINDS as string[]).includes(e)) return e as FileKind;
  if (e === 'spreadsheet') return 'excel';
  return TYPES[e]?.key ?? null;
}

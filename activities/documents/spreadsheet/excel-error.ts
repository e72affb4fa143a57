// One place that words "this workbook cannot be read" for the user, whichever reader failed.
import { DocumentError } from '../errors.js';
import { ZipFormatError } from './zip.js';

export function excelError(reason: string, cause?: unknown): DocumentError {
  return new DocumentError(`The Excel file could not be read: ${reason}`, cause === undefined ? undefined : { cause });
}

/**
 * Maps a failure while reading a workbook to a DocumentError. Operating-system errors (a missing
 * file, a full disk) are ours, not the file's, and pass through unchanged.
 */
export function asExcelError(error: unknown): Error {
  if (error instanceof DocumentError) return error;
  if (error instanceof ZipFormatError) return excelError(error.message, error);
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('Z_')) return excelError('it is damaged (its compressed data is corrupt)', error);
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return error;
  }
  if (/password|encrypt/i.test(message)) return excelError('it is password-protected', error);
  return excelError(shortReason(message), error);
}

/**
 * A SheetJS failure: its messages describe record internals ("major Version: Expected 3 or 4"),
 * which mean nothing to the person who uploaded the file. The detail stays in `cause`.
 */
export function asSheetJsError(error: unknown): Error {
  const mapped = asExcelError(error);
  if (!(mapped instanceof DocumentError) || /password-protected/.test(mapped.message)) return mapped;
  return excelError('it is damaged or not in a format this service can read', error);
}

function shortReason(message: string): string {
  const firstLine = (message.split('\n')[0] ?? '').trim();
  const reason = firstLine.length > 160 ? `${firstLine.slice(0, 157)}...` : firstLine;
  if (reason === '') return 'it is damaged';
  return /^[A-Z][a-z]/.test(reason) ? reason.charAt(0).toLowerCase() + reason.slice(1) : reason;
}

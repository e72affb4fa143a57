// The document model every reader produces and the mapping step consumes.
// Spreadsheets stream their sheets; PDFs and images produce detected tables in memory.
import type { PageSlots } from './ocr/pool.js';

export type FileKind = 'pdf' | 'excel' | 'csv' | 'tsv' | 'image';

/** PDFs and images: read page by page into tables held in memory (spreadsheets stream their sheets). */
export function isPaged(kind: FileKind): kind is 'pdf' | 'image' {
  return kind === 'pdf' || kind === 'image';
}

/** A rectangular run of cells: a spreadsheet sheet or a table found on PDF/image pages. */
export interface SheetSource {
  name: string;
  /** 1-based first page for tables found in documents; undefined for spreadsheets. */
  page?: number;
  /** Text line just above a table found in a document (its caption), for the `tableStart` hint. */
  startMarker?: string;
  /**
   * Rows of cell strings, top to bottom, in batches (a few thousand rows each for large
   * sources: per-row async iteration costs too much at 500k rows). May include header rows
   * at the top. Each call starts again from the first row.
   */
  batches(): AsyncIterable<string[][]>;
}

export interface WordBox {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A line of text in reading order, with word boxes in page coordinates (points, y down). */
export interface TextLine {
  page: number;
  text: string;
  words: WordBox[];
}

export interface DocumentContent {
  kind: FileKind;
  pageCount: number;
  sheets: SheetSource[];
  /** Text lines of PDFs and images, used to find labelled field values. Empty for spreadsheets. */
  lines: TextLine[];
}

/** Hints parsed from the extraction's `guidance` text (see activities/documents/guidance.ts). */
export interface Guidance {
  /** 1-based page numbers to read; undefined means all. */
  pages?: number[];
  dateFormat?: string;
  decimalSeparator?: '.' | ',';
  /** template table key -> text that marks where that table starts */
  tableStart: Record<string, string>;
  /** tesseract languages for this document's scans, instead of the worker's OCR_LANGUAGES */
  languages?: string[];
  /** 'always': every page of a PDF is read by OCR, its text layer ignored (a scan whose own OCR layer reads poorly) */
  ocr?: 'always' | 'auto';
}

/** How a worker reads pictures: its default tesseract languages and its page slots (OCR_CONCURRENCY). */
export interface OcrSettings {
  languages: string[];
  /** shared by every document the worker reads at once */
  pageSlots: PageSlots;
}

/**
 * A read that must stay short (a local activity, which cannot heartbeat): at most `maxPages`
 * pages, none of them read by OCR. Beyond it the reader throws LongRead (errors.ts).
 */
export interface ReadLimit {
  maxPages: number;
}

export interface ProgressReporter {
  (pagesDone: number, pagesTotal: number): void;
}

// Entry point for paged documents (PDFs and images): pages -> words and rules (text layer or
// OCR) -> tables and text lines.
import type { DocumentContent, Guidance, OcrSettings, ProgressReporter, ReadLimit, SheetSource } from './types.js';
import { LongRead } from './errors.js';
import { layoutDocument } from './layout/document.js';
import { readPdf } from './pdf/read-pdf.js';
import { readImage } from './ocr/read-image.js';
import { PageSlots } from './ocr/pool.js';

export { DocumentError } from './errors.js';

const BATCH_ROWS = 2000;
/** Unless the worker says otherwise (OCR_LANGUAGES, OCR_CONCURRENCY): English, two pages at a time in this process. */
const DEFAULT_OCR: OcrSettings = { languages: ['eng'], pageSlots: new PageSlots(2) };

export async function readPagedDocument(
  path: string,
  kind: 'pdf' | 'image',
  opts: { guidance: Guidance; onProgress?: ProgressReporter; ocrSettings?: OcrSettings; limit?: ReadLimit },
): Promise<DocumentContent> {
  const ocr = opts.guidance.ocr ?? 'auto';
  // Every picture is read by OCR.
  if (opts.limit && (kind === 'image' || ocr === 'always')) throw new LongRead('pictures are read by OCR');
  // The upload's `language` guidance wins over the worker's default languages.
  const base = opts.ocrSettings ?? DEFAULT_OCR;
  const settings = { ...base, languages: opts.guidance.languages ?? base.languages };
  const read =
    kind === 'pdf'
      ? await readPdf(path, { pages: opts.guidance.pages, ocr, settings, onProgress: opts.onProgress, limit: opts.limit })
      : await readImage(path, { pages: opts.guidance.pages, settings, onProgress: opts.onProgress });
  const layout = layoutDocument(read.pages);
  const sheets: SheetSource[] = layout.tables.map((t) => ({
    name: t.name,
    page: t.page,
    startMarker: t.startMarker,
    batches: () => batchesOf(t.rows),
  }));
  return { kind, pageCount: read.pageCount, sheets, lines: layout.lines };
}

async function* batchesOf(rows: readonly string[][]): AsyncIterable<string[][]> {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) yield rows.slice(i, i + BATCH_ROWS).map((r) => [...r]);
}

// A PDF -> upright page geometry per selected page: the text layer where it is usable, OCR of the
// rendered page where it is not (scans, pages of images, glyphs with no Unicode).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PageGeometry } from '../layout/geometry.js';
import type { OcrSettings, ProgressReporter, ReadLimit } from '../types.js';
import { LongRead } from '../errors.js';
import { readPgm } from '../ocr/gray-image.js';
import { ocrImage } from '../ocr/ocr-page.js';
import { mapInSlots } from '../ocr/pool.js';
import { OCR_DPI, renderPdfPage } from '../ocr/raster.js';
import { languageArgument } from '../ocr/tesseract.js';
import { DocumentError } from './document-error.js';
import { readPdfPage } from './pdf-page.js';
import { openPdf, toDocumentError } from './pdfjs.js';

export interface PagedRead {
  pageCount: number;
  pages: PageGeometry[];
}

export function selectPages(requested: readonly number[] | undefined, pageCount: number): number[] {
  if (!requested || requested.length === 0) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const valid = [...new Set(requested)].filter((p) => Number.isInteger(p) && p >= 1 && p <= pageCount).sort((a, b) => a - b);
  if (valid.length === 0) {
    throw new DocumentError(`None of the requested pages (${requested.join(', ')}) exist: the document has ${pageCount} page${pageCount === 1 ? '' : 's'}`);
  }
  return valid;
}

export async function readPdf(path: string, options: { pages?: number[]; ocr: 'auto' | 'always'; settings: OcrSettings; onProgress?: ProgressReporter; limit?: ReadLimit }): Promise<PagedRead> {
  const bytes = new Uint8Array(await readFile(path));
  const doc = await openPdf(bytes);
  let tmp: string | undefined;
  try {
    const pageCount = doc.numPages;
    const selected = selectPages(options.pages, pageCount);
    const total = selected.length;
    const { limit } = options;
    if (limit && total > limit.maxPages) throw new LongRead(`${total} pages`);
    let done = 0;
    const report = (): void => options.onProgress?.(++done, total);
    const result = new Map<number, PageGeometry>();
    const needOcr: number[] = [];
    for (const page of selected) {
      if (options.ocr === 'always') {
        needOcr.push(page);
        continue;
      }
      try {
        const content = await readPdfPage(doc, page);
        if (content.textUsable) {
          result.set(page, content.geometry);
          report();
        } else needOcr.push(page);
      } catch (error) {
        const permanent = toDocumentError(error);
        if (permanent && /password/i.test(permanent.message)) throw permanent;
        // A page pdf.js cannot interpret may still render: read it with OCR.
        needOcr.push(page);
      }
      if (limit && needOcr.length) throw new LongRead(`page ${page} needs OCR`);
    }
    if (needOcr.length) {
      const lang = await languageArgument(options.settings.languages);
      tmp = await mkdtemp(join(tmpdir(), 'distill-ocr-'));
      const dir = tmp;
      await mapInSlots(needOcr, options.settings.pageSlots, async (page) => {
        const image = await renderPdfPage(path, page, dir);
        const gray = await readPgm(image);
        result.set(page, await ocrImage({ path: image, gray, dpi: OCR_DPI, workDir: dir }, page, lang));
        await rm(image, { force: true });
        report();
      });
    }
    return { pageCount, pages: selected.map((p) => result.get(p)!) };
  } finally {
    if (tmp) await rm(tmp, { recursive: true, force: true });
    await doc.destroy().catch(() => undefined);
  }
}

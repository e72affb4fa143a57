// An image file (JPEG, PNG, WebP, TIFF with one or more pages, ...) -> upright page geometry.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PageGeometry } from '../layout/geometry.js';
import type { OcrSettings, ProgressReporter } from '../types.js';
import { DocumentError } from '../pdf/document-error.js';
import { selectPages, type PagedRead } from '../pdf/read-pdf.js';
import { decodeImage, type DecodedImage } from './gray-image.js';
import { sniffImage, tiffPage, tiffPageCount } from './images.js';
import { ocrImage } from './ocr-page.js';
import { mapInSlots } from './pool.js';
import { languageArgument } from './tesseract.js';
import { ToolError } from './run-tool.js';

// A stated resolution is believed when the page it makes is at most this many inches long:
// scanners state theirs, while cameras and screenshots state 72 or 96 dpi whatever they hold.
// Pictures without a believable one are sized by their text (ocr-page.ts).
const MAX_PAGE_INCHES = 17;
const MIN_STATED_DPI = 50;

export function statedResolution(image: DecodedImage): number | undefined {
  const { density, width, height } = image;
  if (!density || density < MIN_STATED_DPI) return undefined;
  return Math.max(width, height) / density <= MAX_PAGE_INCHES ? density : undefined;
}

export async function readImage(path: string, options: { pages?: number[]; settings: OcrSettings; onProgress?: ProgressReporter }): Promise<PagedRead> {
  const bytes = new Uint8Array(await readFile(path));
  const format = sniffImage(bytes);
  if (!format) throw new DocumentError('The file is not a supported image (JPEG, PNG, WebP, TIFF, GIF, BMP)');
  const pageCount = format === 'tiff' ? tiffPageCount(bytes) : 1;
  if (pageCount === 0) throw new DocumentError('The TIFF image has no pages');
  const selected = selectPages(options.pages, pageCount);
  const lang = await languageArgument(options.settings.languages);
  const tmp = await mkdtemp(join(tmpdir(), 'distill-img-'));
  try {
    let done = 0;
    const pages = await mapInSlots(selected, options.settings.pageSlots, async (page): Promise<PageGeometry> => {
      // Decoded pixels (upright by EXIF) are what tesseract reads when there are any.
      const gray = await decodeImage(bytes, page - 1);
      let file: string | undefined = gray ? undefined : path;
      if (!gray && format === 'tiff' && pageCount > 1) {
        file = join(tmp, `page-${page}.tif`);
        await writeFile(file, tiffPage(bytes, page - 1));
      }
      try {
        const geometry = await ocrImage({ path: file, gray, dpi: gray && statedResolution(gray), workDir: tmp }, page, lang);
        options.onProgress?.(++done, selected.length);
        return geometry;
      } catch (error) {
        // tesseract (leptonica) could not decode the picture: it will not decode on a retry either.
        if (error instanceof ToolError && !error.timedOut && /read|image|pix|format|open/i.test(error.stderr)) {
          throw new DocumentError('The image could not be read: it is damaged or in an unsupported format', { cause: error });
        }
        throw error;
      }
    });
    return { pageCount, pages };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

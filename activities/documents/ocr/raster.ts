// A PDF page as a grey picture for OCR (pdftoppm, one page per call, binary PGM: no PNG
// encoding, and the pixels are read back directly for rule detection).
import { join } from 'node:path';
import { runTool } from './run-tool.js';

export const OCR_DPI = 300;

export async function renderPdfPage(pdfPath: string, page: number, dir: string, dpi = OCR_DPI): Promise<string> {
  const prefix = join(dir, `page-${page}`);
  await runTool('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), '-gray', '-singlefile', pdfPath, prefix], { timeoutMs: 120_000 });
  return `${prefix}.pgm`;
}

// Loads pdfjs once per process and opens documents with the options that keep it safe and
// quiet in Node: no eval, no system fonts, no console output, no font drawing.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api.js';
import { DocumentError } from './document-error.js';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loading: Promise<Pdfjs> | undefined;

// The legacy build's core-js polyfills replace Array.prototype.push for the whole process with a
// spec-pedantic JavaScript version (a check on pushing onto a frozen-length array fails on this
// V8). Every push anywhere then runs several times slower; nothing pdf.js does depends on the
// difference, so the engine's own push is put back once pdf.js (and its worker code) has loaded.
const nativePush = Array.prototype.push;

function restoreNativePush(): void {
  if (Array.prototype.push !== nativePush) {
    Object.defineProperty(Array.prototype, 'push', { value: nativePush, writable: true, configurable: true, enumerable: false });
  }
}

// pdf.js 5 inflates every Flate stream (a page's contents, once for its text and once for its
// drawing; font files) through the web DecompressionStream when the runtime has one. In Node that
// is zlib on the thread pool behind web streams: for streams of a few kilobytes, a hand-off to
// another thread and back and a dozen promises cost more than the inflating, which pdf.js's own
// decoder does on this thread when the constructor is missing. Without it, reading the sample PDFs
// took 12% less time. Nothing else in the processes that read PDFs uses it (undici's fetch
// decompresses with zlib directly).
function inflateOnThisThread(): void {
  Reflect.deleteProperty(globalThis, 'DecompressionStream');
}

export function loadPdfjs(): Promise<Pdfjs> {
  if (!loading) {
    inflateOnThisThread();
    loading = import('pdfjs-dist/legacy/build/pdf.mjs').then((m) => {
      restoreNativePush();
      return m;
    });
  }
  return loading;
}

function standardFontDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
}

let fontDir: string | undefined;

export type PdfDocument = PDFDocumentProxy;

/** Opens a PDF from bytes; permanent problems become DocumentError with a message for users. */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const pdfjs = await loadPdfjs();
  fontDir ??= standardFontDir();
  const task = pdfjs.getDocument({
    data: bytes,
    isEvalSupported: false,
    // Font faces on, so that pdf.js does not compile every glyph's outline for drawing them as
    // paths; their binding is made a no-op once the document is open (skipFontBinding).
    disableFontFace: false,
    useSystemFonts: false,
    verbosity: 0,
    standardFontDataUrl: fontDir,
    stopAtErrors: false,
    // Pictures are never drawn here (scans go to pdftoppm and OCR): with every image over the
    // size limit, pdf.js skips decoding them while building operator lists.
    maxImageSize: 1,
  });
  let doc: PdfDocument;
  try {
    doc = await task.promise;
    skipFontBinding(doc);
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw toDocumentError(error) ?? error;
  } finally {
    // The worker code (loaded with the first document) carries the same polyfills.
    restoreNativePush();
  }
  if (doc.numPages < 1) {
    await doc.destroy();
    throw new DocumentError('The PDF has no pages');
  }
  return doc;
}

/**
 * Nothing is drawn here, so fonts need no binding for drawing. pdf.js either binds each font as a
 * CSS rule holding the font file in base64 (font faces on; through a DOM that Node lacks) or, with
 * font faces off, compiles the outline of every glyph shown and posts it to the display side:
 * together with its messages the latter was a sixth of reading the sample PDFs (0.42 → 0.35 s a pass).
 * The loader is pdf.js's own (pinned by the lockfile); a version without it fails loudly here.
 */
function skipFontBinding(doc: PdfDocument): void {
  const transport = (doc as unknown as { _transport?: { fontLoader?: { bind?: unknown } } })._transport;
  if (!transport?.fontLoader || typeof transport.fontLoader.bind !== 'function') throw new Error('pdf.js has no font loader to skip binding in: check activities/documents/pdf/pdfjs.ts against this pdfjs-dist version');
  transport.fontLoader.bind = async (): Promise<void> => {};
}

/** Maps pdfjs's own failure kinds to permanent errors; undefined for anything else. */
export function toDocumentError(error: unknown): DocumentError | undefined {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') {
    return new DocumentError('The PDF is password-protected and cannot be read', { cause: error });
  }
  if (name === 'InvalidPDFException' || name === 'FormatError' || /Invalid PDF structure|No password given/i.test(message)) {
    return new DocumentError('The file is not a valid PDF or is damaged and cannot be read', { cause: error });
  }
  return undefined;
}

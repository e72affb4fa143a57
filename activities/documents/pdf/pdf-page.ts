// One PDF page -> words and rulings on the upright page, and whether its text layer is usable.
import type { PageGeometry } from '../layout/geometry.js';
import { loadPdfjs, type PdfDocument } from './pdfjs.js';
import { makeFrame, type Matrix } from './page-frame.js';
import { dominantTurns, isTextItem, wordsOfItems, type TextItemLike } from './page-text.js';
import { rulingsOfOperators } from './page-rulings.js';

export interface PdfPageContent {
  geometry: PageGeometry;
  /** False when the page carries (almost) no real text: a scan, or glyphs with no Unicode mapping. */
  textUsable: boolean;
  /** The page's displayed size in points at /Rotate, which is how pdftoppm renders it. */
  renderedWidth: number;
  renderedHeight: number;
}

const MIN_TEXT_CHARS = 10;
// Characters that mean the font has no usable Unicode mapping.
const JUNK = /[\u0000-\u0008\u000e-\u001f\ufffd\ue000-\uf8ff]/gu;

export async function readPdfPage(doc: PdfDocument, pageNumber: number): Promise<PdfPageContent> {
  const pdfjs = await loadPdfjs();
  const page = await doc.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const vt = viewport.transform as Matrix;
    const content = await page.getTextContent({ includeMarkedContent: false, disableNormalization: false });
    const items: TextItemLike[] = content.items.filter(isTextItem);
    const frame = makeFrame(viewport.width, viewport.height, vt, dominantTurns(items, vt));
    const words = wordsOfItems(items, frame);
    const opList = await page.getOperatorList();
    const rulings = rulingsOfOperators(opList.fnArray, opList.argsArray, pdfjs.OPS, frame);
    const text = words.map((w) => w.text).join('');
    const junk = text.match(JUNK)?.length ?? 0;
    const textUsable = text.length - junk >= MIN_TEXT_CHARS && junk / Math.max(1, text.length) < 0.3;
    return {
      geometry: { page: pageNumber, width: frame.width, height: frame.height, words, rulings },
      textUsable,
      renderedWidth: viewport.width,
      renderedHeight: viewport.height,
    };
  } finally {
    page.cleanup();
  }
}

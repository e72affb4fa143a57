// OCR path end to end: a generated PDF rendered to PNG (pdftoppm, 300 dpi) and read back as an
// image; then the same page as the second page of a two-page TIFF, and a scan-only PDF.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { readPagedDocument } from '../../activities/documents/pages.js';
import { sheetRows } from '../../activities/documents/sheet-rows.js';
import { tiffPage, tiffPageCount } from '../../activities/documents/ocr/images.js';
import { makePdf } from '../fixtures/layout/make-pdf.js';
import { parseGuidance } from '../../activities/documents/guidance.js';
import { DocumentError } from '../../activities/documents/errors.js';

let dir = '';
const guidance = { tableStart: {} };
const expected = [
  ['Product', 'Quantity', 'Price'],
  ['Apples', '12', '3.50'],
  ['Oranges', '7', '2.25'],
  ['Cherries', '150', '9.90'],
];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocr-test-'));
  await makePdf(join(dir, 'table.pdf'), [
    (p) => {
      p.text('Fruit order', 72, 60, { size: 18, bold: true });
      expected.forEach((row, r) => row.forEach((cell, c) => p.text(cell, [72, 240, 400][c]!, 110 + r * 24, { size: 14, bold: r === 0 })));
    },
  ]);
  execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', join(dir, 'table.pdf'), join(dir, 'table')]);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Near-exact: same shape, header exact, at most one other cell missed. Tesseract's sparse-text
 * mode can drop a lone one-character word ("7") as noise.
 */
function assertNearlyExpected(rows: string[][]): void {
  assert.equal(rows.length, expected.length);
  assert.deepEqual(rows[0], expected[0]);
  let wrong = 0;
  rows.forEach((row, r) => {
    assert.equal(row.length, 3);
    row.forEach((cell, c) => {
      if (cell !== expected[r]![c]) {
        wrong++;
        assert.equal(cell, '', `cell ${r},${c} is either right or missing`);
      }
    });
  });
  assert.ok(wrong <= 1, `${wrong} cells missed`);
}

async function rowsOf(path: string, kind: 'pdf' | 'image', extra: { pages?: number[]; ocr?: 'always' } = {}): Promise<{ rows: string[][]; pages: number }> {
  const doc = await readPagedDocument(path, kind, { guidance: { ...guidance, pages: extra.pages, ocr: extra.ocr } });
  return { rows: doc.sheets[0] ? await sheetRows(doc.sheets[0]) : [], pages: doc.pageCount };
}

test('PNG of a rendered page: exact rows through tesseract', async () => {
  const { rows, pages } = await rowsOf(join(dir, 'table.png'), 'image');
  assert.equal(pages, 1);
  assertNearlyExpected(rows);
});

test('PDF with ocr: always reads the page through tesseract', async () => {
  const { rows } = await rowsOf(join(dir, 'table.pdf'), 'pdf', { ocr: 'always' });
  assertNearlyExpected(rows);
});

test('multi-page TIFF: pages are split and read one by one', async () => {
  // Two-page TIFF built from two grey PGM renders (uncompressed strips).
  execFileSync('pdftoppm', ['-r', '150', '-gray', '-singlefile', join(dir, 'table.pdf'), join(dir, 'grey')]);
  const pgm = await readFile(join(dir, 'grey.pgm'));
  const tiff = twoPageTiff(pgm);
  assert.equal(tiffPageCount(tiff), 2);
  assert.equal(tiffPageCount(tiffPage(tiff, 1)), 1);
  await writeFile(join(dir, 'two.tif'), tiff);
  const { rows, pages } = await rowsOf(join(dir, 'two.tif'), 'image', { pages: [2] });
  assert.equal(pages, 2);
  assertNearlyExpected(rows);
});

test('a PDF page with no text layer is OCRed', async () => {
  // An image-only PDF: the PNG embedded on a page of the same size.
  const doc = await PDFDocument.create();
  const png = await doc.embedPng(await readFile(join(dir, 'table.png')));
  doc.addPage([612, 792]).drawImage(png, { x: 0, y: 0, width: 612, height: 792 });
  await writeFile(join(dir, 'scan.pdf'), await doc.save());
  const { rows } = await rowsOf(join(dir, 'scan.pdf'), 'pdf');
  assertNearlyExpected(rows);
});

test('a blank sheet in a scan, and one with a drawing but no text, are pages with nothing on them; the page after them reads as usual', async () => {
  const doc = await PDFDocument.create();
  const png = await doc.embedPng(await readFile(join(dir, 'table.png')));
  doc.addPage([612, 792]);
  const drawing = doc.addPage([612, 792]);
  drawing.drawLine({ start: { x: 100, y: 100 }, end: { x: 500, y: 700 }, thickness: 2 });
  drawing.drawLine({ start: { x: 100, y: 700 }, end: { x: 500, y: 100 }, thickness: 2 });
  doc.addPage([612, 792]).drawImage(png, { x: 0, y: 0, width: 612, height: 792 });
  await writeFile(join(dir, 'with-blank.pdf'), await doc.save());
  const read = await readPagedDocument(join(dir, 'with-blank.pdf'), 'pdf', { guidance });
  assert.equal(read.pageCount, 3);
  assert.deepEqual(read.lines.filter((l) => l.page < 3), []);
  assert.equal(read.sheets.length, 1);
  assertNearlyExpected(await sheetRows(read.sheets[0]!));
});

test('language guidance: a Spanish scan read in Spanish keeps its accents; a missing language fails clearly', async () => {
  const names = [['Nombre', 'Provincia'], ['María Núñez', 'Córdoba'], ['José Pérez', 'Tucumán'], ['Raúl Ibáñez', 'Entre Ríos']];
  await makePdf(join(dir, 'es.pdf'), [(p) => names.forEach((row, r) => row.forEach((cell, c) => p.text(cell, [72, 300][c]!, 100 + r * 26, { size: 14, bold: r === 0 })))]);
  execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', join(dir, 'es.pdf'), join(dir, 'es')]);
  const read = async (hints: string): Promise<string[][]> => {
    const doc = await readPagedDocument(join(dir, 'es.png'), 'image', { guidance: parseGuidance(hints) });
    return sheetRows(doc.sheets[0]!);
  };
  assert.deepEqual(await read('language: spa'), names);
  // English, the default, reads most accented letters as plain ones ("Maria Nunez").
  const english = (await read('')).flat();
  assert.ok(english.filter((cell) => names.flat().includes(cell)).length < names.flat().length - 2, english.join(' | '));
  await assert.rejects(read('language: xx_missing+eng'), (error: unknown) => error instanceof DocumentError && /OCR language 'xx_missing' is not installed on the worker \(installed: .*eng/u.test(error.message));
});

test('nil and negative amounts: a dash alone in a cell is read, long as an em dash, short as a hyphen; minus signs stay', async () => {
  // tesseract drops a lone dash, and a minus sign set tight against its figure
  const statement = [['Item', '2023', '2024'], ['Revenue', '1,200', '—'], ['Grants', '-', '350'], ['Fees', '-4.3', '-'], ['Costs', '-1,250.5', '-17']];
  await makePdf(join(dir, 'nil.pdf'), [(p) => statement.forEach((row, r) => row.forEach((cell, c) => p.text(cell, [72, 240, 360][c]!, 100 + r * 26, { size: 14, bold: r === 0 })))]);
  execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', join(dir, 'nil.pdf'), join(dir, 'nil')]);
  const { rows } = await rowsOf(join(dir, 'nil.png'), 'image');
  assert.deepEqual(rows, statement);
});

function twoPageTiff(pgm: Buffer): Uint8Array {
  const header = pgm.toString('latin1', 0, 64).match(/^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/);
  if (!header) throw new Error('not a PGM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length, header[0].length + width * height);
  const ifdSize = 2 + 8 * 12 + 4;
  const pageBytes = pixels.length;
  const out = new Uint8Array(8 + 2 * (ifdSize + pageBytes));
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 42, 0]);
  let offset = 8;
  view.setUint32(4, offset, true);
  for (let page = 0; page < 2; page++) {
    const data = offset + ifdSize;
    const next = page === 0 ? data + pageBytes : 0;
    const entries: [number, number, number][] = [
      [256, 4, width], [257, 4, height], [258, 3, 8], [259, 3, 1], [262, 3, 1], [273, 4, data], [278, 4, height], [279, 4, pageBytes],
    ];
    view.setUint16(offset, entries.length, true);
    entries.forEach(([tag, type, value], i) => {
      const at = offset + 2 + i * 12;
      view.setUint16(at, tag, true);
      view.setUint16(at + 2, type, true);
      view.setUint32(at + 4, 1, true);
      if (type === 3) view.setUint16(at + 8, value, true);
      else view.setUint32(at + 8, value, true);
    });
    view.setUint32(offset + 2 + entries.length * 12, next, true);
    out.set(pixels, data);
    offset = data + pageBytes;
  }
  return out;
}

test('scanned ruled table: rules found in the pixels give rows and columns; lone characters are read', async () => {
  // Columns too close for whitespace alone, a cell wrapped on two lines, one-character cells.
  const ruled = [
    ['Code', 'Item', 'Qty'],
    ['A', ['Large red apples', 'from the south'], '7'],
    ['B', 'Pears', '12'],
  ];
  await makePdf(join(dir, 'ruled.pdf'), [
    (p) => p.grid([72, 120, 260, 300], [100, 124, 172, 196], ruled, { size: 14, boldFirstRow: true }),
  ]);
  execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', join(dir, 'ruled.pdf'), join(dir, 'ruled')]);
  const { rows } = await rowsOf(join(dir, 'ruled.png'), 'image');
  assert.deepEqual(rows, [
    ['Code', 'Item', 'Qty'],
    ['A', 'Large red apples from the south', '7'],
    ['B', 'Pears', '12'],
  ]);
});

// Documents an extractor must survive: each ends in content or a DocumentError with a clear
// message, never a crash or a hang. And the limited read that small documents get.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LongRead } from '../../activities/documents/errors.js';
import { DocumentError, readPagedDocument } from '../../activities/documents/pages.js';
import { sheetRows } from '../../activities/documents/sheet-rows.js';
import { parseGuidance } from '../../activities/documents/guidance.js';
import { makePdf, type PageDrawer } from '../fixtures/layout/make-pdf.js';

const EDGE = join(import.meta.dirname, '../../../shared/datasets/pdf-tables/edge');
const guidance = { tableStart: {} };

test('encrypted PDF: password-protected error', { skip: !existsSync(EDGE) }, async () => {
  await assert.rejects(readPagedDocument(join(EDGE, 'encrypted.pdf'), 'pdf', { guidance }), (e: unknown) => e instanceof DocumentError && /password-protected/.test(e.message));
});

for (const name of ['rotated_page', 'arabic', 'china', 'jpeg2000']) {
  test(`edge document ${name} is read`, { skip: !existsSync(EDGE) }, async () => {
    const doc = await readPagedDocument(join(EDGE, `${name}.pdf`), 'pdf', { guidance });
    assert.ok(doc.pageCount >= 1);
    assert.ok(doc.lines.length > 0, 'some text is read');
  });
}

test('rotated page reads upright: its table has figures in rows', { skip: !existsSync(EDGE) }, async () => {
  const doc = await readPagedDocument(join(EDGE, 'rotated_page.pdf'), 'pdf', { guidance });
  assert.ok(doc.lines.some((l) => /Adjusted Baseline by Category/.test(l.text)));
  // One table, each label beside its figures: the rules over its header and subtotals do not
  // part the labels from the figures, and the running head up the margin is no column.
  assert.equal(doc.sheets.length, 1);
  const rows = await sheetRows(doc.sheets[0]!);
  const labelled = (label: string): string[] | undefined => rows.find((r) => r[0] === label);
  // Its header is the row of years, the ranges broken over two lines whole and `Totals` over them.
  const years = ['2011', '2012', '2013', '2014', '2015', '2016', '2017', '2018', '2019', '2020', '2021', '2022'];
  assert.deepEqual(rows[0], ['', ...years, 'Totals 2013–2017', '2013–2022']);
  assert.deepEqual(rows[1], ['Outlays:', ...new Array<string>(14).fill('')]);
  assert.deepEqual(labelled('Defense 3'), ['Defense 3', '699', '709', '700', '673', '678', '690', '706', '722', '737', '753', '769', '788', '3,446', '7,215']);
  assert.deepEqual(labelled('Total receipts'), ['Total receipts', '2,303', '2,590', '2,882', '3,145', '3,273', '3,444', '3,711', '3,939', '4,164', '4,367', '4,610', '4,855', '16,455', '38,391']);
  assert.deepEqual(labelled('Mandatory programs:'), ['Mandatory programs:', ...new Array<string>(14).fill('')]);
});

test('Arabic set in presentation forms reads as Arabic letters, one ruled row per row', { skip: !existsSync(EDGE) }, async () => {
  const doc = await readPagedDocument(join(EDGE, 'arabic.pdf'), 'pdf', { guidance });
  assert.equal(doc.sheets.length, 1);
  // As tabula reads it, but for the tanween of مرحباً, which pdf.js sets apart at the start of
  // another cell: a mark with no letter, dropped.
  assert.deepEqual(await sheetRows(doc.sheets[0]!), [
    ['مرحبا', 'اسمي سلطان'],
    ['انا من ولاية كارولينا الشمال', 'من اين انت؟'],
    ['1234', 'عندي 47 قطط'],
    ['هل انت شباك؟', 'اسمي Jeremy في الانجليزية'],
    ['Jeremy is جرمي in Arabic', ''],
  ]);
});

test('guidance ocr: always reads the page by OCR, not by a text layer that misreads it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-ocr-always-'));
  try {
    const path = join(dir, 'scan-with-layer.pdf');
    // What the page shows, and a poor OCR layer of its own that no picture of the page shows.
    await makePdf(path, [(p) => {
      p.text('Invoice total 125.40', 72, 100, { size: 14 });
      p.text('lnvoice tota1 l25.4O', 72, 300, { size: 14, white: true });
    }]);
    const textOf = async (guidance: string): Promise<string> => (await readPagedDocument(path, 'pdf', { guidance: parseGuidance(guidance) })).lines.map((l) => l.text).join('\n');
    assert.match(await textOf(''), /lnvoice tota1 l25\.4O/);
    const read = await textOf('ocr: always');
    assert.match(read, /Invoice total 125\.40/);
    assert.doesNotMatch(read, /tota1/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a typewritten scan read by OCR (ocr: always): shares typed as ".53" keep their point, parties their brackets, leaders are no cells', { skip: !existsSync(EDGE) }, async () => {
  const doc = await readPagedDocument(join(EDGE, 'jpeg2000.pdf'), 'pdf', { guidance: parseGuidance('ocr: always') });
  const rows = (await Promise.all(doc.sheets.map((sheet) => sheetRows(sheet)))).flat();
  const cellsOf = (label: RegExp): string[] => rows.find((r) => label.test(r[0] ?? '')) ?? [];
  // The document's own OCR layer reads "Green Party CGRN) ." and "Libertarian Party CLIB).".
  // Its typewriter's dot leaders ". . . ." are no cells.
  assert.deepEqual(cellsOf(/^Green Party/), ['Green Party (GRN)', '1', '.53', '0', '0', '0', '0', '1']);
  assert.deepEqual(cellsOf(/^Democratic Party/), ['Democratic Party (DEM)', '36', '19.05', '2', '6', '11', '1', '16']);
  assert.ok(cellsOf(/^Libertarian Party \(LIB\)/).includes('1.59'), JSON.stringify(cellsOf(/^Libertarian Party/)));
  assert.ok(cellsOf(/^Martina Salinas \(GRN\)/).includes('.29'), JSON.stringify(cellsOf(/^Martina Salinas/)));
});

test('the rotated page scanned: negative figures set with an en dash keep their sign, the title is no row', { skip: !existsSync(EDGE) }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-edge-scan-'));
  try {
    execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', join(EDGE, 'rotated_page.pdf'), join(dir, 'page')]);
    const doc = await readPagedDocument(join(dir, 'page.png'), 'image', { guidance });
    const rows = await sheetRows(doc.sheets[0]!);
    // The ranges, set a little lower than the years and read as lines of their own, join the header.
    assert.deepEqual(rows[0]!.slice(0, 4), ['', '2011', '2012', '2013']);
    assert.deepEqual(rows[0]!.slice(-2), ['2013-2017', '2013-2022']);
    assert.equal(rows[1]![0], 'Outlays:');
    const joint = rows.find((r) => r[0] === 'Joint Committee enforcement') ?? [];
    assert.deepEqual(joint.slice(3), ['-71', '-96', '-105', '-109', '-109', '-109', '-109', '-109', '-109', '-38', '-490', '-966']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('not a PDF, empty file and a broken image: DocumentError', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-edge-'));
  try {
    await writeFile(join(dir, 'junk.pdf'), 'this is not a pdf at all');
    await writeFile(join(dir, 'empty.pdf'), '');
    await writeFile(join(dir, 'junk.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]));
    await writeFile(join(dir, 'text.jpg'), 'hello');
    for (const [file, kind] of [['junk.pdf', 'pdf'], ['empty.pdf', 'pdf'], ['junk.png', 'image'], ['text.jpg', 'image']] as const) {
      await assert.rejects(readPagedDocument(join(dir, file), kind, { guidance }), (e: unknown) => e instanceof DocumentError && e.message.length > 10, file);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a limited read (a small document) stops with LongRead past its pages, at a page needing OCR and at a picture', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-limit-'));
  try {
    const page = (n: number) => (p: PageDrawer) => p.text(`Page ${n} of the report`, 72, 72);
    await makePdf(join(dir, 'three.pdf'), [page(1), page(2), page(3)]);
    await makePdf(join(dir, 'blank-second.pdf'), [page(1), () => {}]);
    await writeFile(join(dir, 'picture.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const longRead = (why: RegExp) => (e: unknown) => e instanceof LongRead && why.test(e.message);
    await assert.rejects(readPagedDocument(join(dir, 'three.pdf'), 'pdf', { guidance, limit: { maxPages: 2 } }), longRead(/3 pages/));
    await assert.rejects(readPagedDocument(join(dir, 'blank-second.pdf'), 'pdf', { guidance, limit: { maxPages: 2 } }), longRead(/page 2 needs OCR/));
    await assert.rejects(readPagedDocument(join(dir, 'picture.png'), 'image', { guidance, limit: { maxPages: 2 } }), longRead(/OCR/));
    // within the limit, or the pages guidance bringing it within: read as without one
    const within = await readPagedDocument(join(dir, 'three.pdf'), 'pdf', { guidance, limit: { maxPages: 3 } });
    assert.deepEqual(within.lines.map((l) => l.text), ['Page 1 of the report', 'Page 2 of the report', 'Page 3 of the report']);
    const chosen = await readPagedDocument(join(dir, 'three.pdf'), 'pdf', { guidance: { ...guidance, pages: [3] }, limit: { maxPages: 1 } });
    assert.deepEqual(chosen.lines.map((l) => l.text), ['Page 3 of the report']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

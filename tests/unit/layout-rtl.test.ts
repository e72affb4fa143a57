// Right-to-left text (Hebrew, Arabic): words in logical order, paired brackets mirrored as a
// person types them ("(ללא יהלומים)", not the visual ")ללא יהלומים(").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPagedDocument } from '../../activities/documents/pages.js';
import { sheetRows } from '../../activities/documents/sheet-rows.js';
import type { DocumentContent } from '../../activities/documents/types.js';
import type { PageWord } from '../../activities/documents/layout/geometry.js';
import { groupLines, lineText } from '../../activities/documents/layout/lines.js';
import { cellText } from '../../activities/documents/layout/cells.js';
import { mirrorRtlRuns } from '../../activities/documents/layout/bidi.js';
import { asLetters, wordsOfItems } from '../../activities/documents/pdf/page-text.js';
import { makeFrame } from '../../activities/documents/pdf/page-frame.js';
import { makePdf, type PageDrawer } from '../fixtures/layout/make-pdf.js';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'layout-rtl-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function read(name: string, draw: (p: PageDrawer) => void): Promise<DocumentContent> {
  const path = join(dir, `${name}.pdf`);
  await makePdf(path, [draw]);
  return readPagedDocument(path, 'pdf', { guidance: { tableStart: {} } });
}

const rowsOf = (doc: DocumentContent, index = 0): Promise<string[][]> => sheetRows(doc.sheets[index]!);

/** What a page shows for right-to-left text typed as `logical`: glyphs reversed, brackets mirrored. */
function shown(logical: string): string {
  const swap: Record<string, string> = { '(': ')', ')': '(', '[': ']', ']': '[' };
  return Array.from(logical)
    .reverse()
    .map((c) => swap[c] ?? c)
    .join('');
}

function word(text: string, x0: number, x1: number, rtl = /[\u0590-\u08ff]/u.test(text)): PageWord {
  return { text, x0, x1, y0: 100, y1: 110, size: 10, font: 'F1', rtl };
}

test('generated PDF: brackets inside a Hebrew text item read as typed', async () => {
  const doc = await read('item', (p) => {
    p.hebrew(shown('תעשייה (ללא יהלומים)'), 300, 100);
    p.hebrew(shown('ההוצאה לצריכה אינדיבידואלית (1) לנפש'), 300, 130);
    p.hebrew(shown('בינוי [א]'), 300, 160);
  });
  const texts = doc.lines.map((l) => l.text);
  assert.deepEqual(texts, ['תעשייה (ללא יהלומים)', 'ההוצאה לצריכה אינדיבידואלית (1) לנפש', 'בינוי [א]']);
});

test('generated PDF: brackets set as their own text items, touching the Hebrew words, read as typed', async () => {
  // As in indictb1h_14.pdf: "(" and ")" are separate items in another font run.
  const doc = await read('separate', (p) => {
    let x = 300;
    x += p.hebrew('(', x, 100);
    x += p.hebrew(shown('ללא יהלומים'), x, 100);
    x += p.hebrew(')', x, 100);
    p.hebrew(shown('תעשייה'), x + 3, 100);
  });
  assert.deepEqual(
    doc.lines.map((l) => l.text),
    ['תעשייה (ללא יהלומים)'],
  );
});

test('generated PDF: a ruled right-to-left table keeps its figures, brackets of the labels mirrored', async () => {
  const xs = [100, 180, 260, 460];
  const ys = [100, 120, 140, 160, 180];
  const doc = await read('table', (p) => {
    for (const y of ys) p.hline(xs[0]!, xs[3]!, y);
    for (const x of xs) p.vline(x, ys[0]!, ys[4]!);
    const rows = [
      ['2014', '2013', 'ענף'],
      ['(12.5)', '3.2', 'תעשייה (ללא יהלומים)'],
      ['1.4', '-2.0', 'בינוי [א]'],
      ['0.8', '1.1', 'לנפש (1)'],
    ];
    rows.forEach((cells, r) => {
      p.text(cells[0]!, xs[0]! + 4, ys[r]! + 4);
      p.text(cells[1]!, xs[1]! + 4, ys[r]! + 4);
      p.hebrew(shown(cells[2]!), xs[2]! + 4, ys[r]! + 4);
    });
  });
  assert.deepEqual(await rowsOf(doc), [
    ['2014', '2013', 'ענף'],
    ['(12.5)', '3.2', 'תעשייה (ללא יהלומים)'],
    ['1.4', '-2.0', 'בינוי [א]'],
    ['0.8', '1.1', 'לנפש (1)'],
  ]);
});

test('bracket fragments joining Hebrew words are put into logical order and mirrored', () => {
  // Visual, left to right: "(" "םימוהי" (joined) ... "אלל" ")" ; read right to left: "(ללא יהלומים)".
  const lines = groupLines([word('(', 10, 13), word('יהלומים', 13.5, 40), word('ללא', 45, 60), word(')', 60.5, 63), word('תעשייה', 70, 95)]);
  assert.deepEqual(lines[0]!.words.map((w) => w.text), ['יהלומים)', '(ללא', 'תעשייה']);
  assert.equal(lineText(lines[0]!), 'תעשייה (ללא יהלומים)');
});

test('bracket words standing apart in a right-to-left line are mirrored; figures keep their form', () => {
  // Words a space apart, left to right as the page shows them (each Hebrew word's own letters in
  // logical order, as the readers give them): brackets as the glyphs stand, "(" left of "1".
  const lines = groupLines([word('(12.5)', 0, 25), word('(', 40, 43), word('1', 45, 50), word(')', 52, 55), word('ללא', 60, 80), word('[', 85, 88), word('יהלומים', 90, 120), word(']', 125, 128), word('תעשייה', 135, 160)]);
  assert.equal(lineText(lines[0]!), 'תעשייה [ יהלומים ] ללא ( 1 ) (12.5)');
  // A cell holding part of the line reads the same way.
  assert.equal(cellText(lines[0]!.words.slice(4)), 'תעשייה [ יהלומים ] ללא');
});

test('left-to-right text keeps its brackets, also around a Hebrew word', () => {
  const lines = groupLines([word('Name', 0, 30), word('(', 35, 38), word('שלום', 39, 60), word(')', 61, 64), word('here', 70, 90)]);
  assert.equal(lineText(lines[0]!), 'Name (שלום) here');
});

test('mirrorRtlRuns: brackets of right-to-left runs in logical text are mirrored, others kept', () => {
  // pdf.js reorders "(1) שפנל" (visual) to "לנפש )1(" without mirroring.
  assert.equal(mirrorRtlRuns('לנפש )1(', true), 'לנפש (1)');
  assert.equal(mirrorRtlRuns(')ללא יהלומים( תעשייה', true), '(ללא יהלומים) תעשייה');
  // Other Bidi_Mirrored pairs: quotation marks, comparisons.
  assert.equal(mirrorRtlRuns('«שלום» ≥ 5', true), '»שלום« ≤ 5');
  // Left-to-right text with a Hebrew word: brackets between Latin and Hebrew take the text's direction.
  assert.equal(mirrorRtlRuns('Name (שלום) here', false), 'Name (שלום) here');
  assert.equal(mirrorRtlRuns('Jeremy (x) שלום', true), 'Jeremy (x) שלום');
});

test('Arabic in presentation forms reads as the letters shown; ligatures likewise; other text is untouched', () => {
  assert.equal(asLetters('\uFEE3\uFEAE\uFEA3\uFE92\uFE8E \uFEED\uFEFB\uFEF3\uFE94'), 'مرحبا ولاية');
  assert.equal(asLetters('\uFB01nal \uFB02ow'), 'final flow');
  assert.equal(asLetters('Jeremy is جرمي (2) ½'), 'Jeremy is جرمي (2) ½');
});

test('a vowel sign pdf.js set apart from its letter is no word', () => {
  const frame = makeFrame(612, 792, [1, 0, 0, -1, 0, 792], 0);
  const item = { str: '\u064B \uFE8D\uFEB3\uFEE4\uFEF2 \uFEB3\uFEE0\uFEC4\uFE8E\uFEE5', dir: 'rtl', width: 57, transform: [14, 0, 0, 14, 477, 681], fontName: 'f1' };
  assert.deepEqual(
    wordsOfItems([item], frame).map((w) => w.text),
    ['اسمي', 'سلطان'],
  );
});

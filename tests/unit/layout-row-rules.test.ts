// Tables ruled between rows only, where the rules do not bound the table: a rule over and under
// the header with the body unruled, short rules over subtotals with the labels beyond them. The
// table is its aligned text, whole, with no title, page number or margin text in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPagedDocument } from '../../activities/documents/pages.js';
import { sheetRows } from '../../activities/documents/sheet-rows.js';
import { makePdf, type PageDrawer } from '../fixtures/layout/make-pdf.js';
import { generatedPdfs } from '../fixtures/layout/read-generated.js';

const read = generatedPdfs('layout-row-rules-');

const FIGURE_RIGHTS = [300, 350, 400];

/** A label at x and figures right-aligned at FIGURE_RIGHTS (8 pt Helvetica). */
function row(p: PageDrawer, label: string, x: number, top: number, figures: readonly string[] = []): void {
  p.text(label, x, top, { size: 8 });
  figures.forEach((f, k) => p.text(f, FIGURE_RIGHTS[k]! - p.width(f, { size: 8 }), top, { size: 8 }));
}

/** Title and page number, units, a rule over and under the year header. */
function head(p: PageDrawer): void {
  p.text('Table 4.  Budget by Category', 150, 56, { size: 12, bold: true });
  p.text('208', 520, 52, { size: 20 });
  p.text('(In billions of dollars)', 200, 74, { size: 8 });
  p.hline(72, 410, 88);
  row(p, '', 72, 93, ['2011', '2012', '2013']);
  p.hline(72, 410, 105);
}

// Label x (indents), top, then the expected cells; the subtotal's label is the widest, and the
// heading under it is set out left of it, tight under it: a heading, not the label's next line.
const BODY: [number, number, string[]][] = [
  [72, 110, ['Outlays:', '', '', '']],
  [82, 121, ['Defense', '699', '709', '700']],
  [82, 132, ['Non-defense', '600', '610', '565']],
  [92, 143, ['Subtotal, appropriated programs', '1,299', '1,319', '1,265']],
  [72, 153, ['Receipts:', '', '', '']],
  [82, 164, ['Income taxes', '1,091', '1,179', '1,294']],
  [82, 175, ['Excise taxes', '72', '80', '87']],
];
const TOTAL = ['Total receipts', '1,163', '1,259', '1,381'];

function body(p: PageDrawer): void {
  for (const [x, top, [label, ...figures]] of BODY) row(p, label!, x, top, figures.filter(Boolean));
}

/** A short rule over each column's figures, as over a subtotal. */
function subtotalRules(p: PageDrawer, y: number): void {
  for (const right of FIGURE_RIGHTS) p.hline(right - 30, right, y);
}

test('rules over and under the header only: the unruled body under them is the table', async () => {
  const doc = await read('header-band', [
    (p) => {
      head(p);
      body(p);
    },
  ]);
  assert.equal(doc.sheets.length, 1);
  assert.deepEqual(await sheetRows(doc.sheets[0]!), [['', '2011', '2012', '2013'], ...BODY.map(([, , cells]) => cells)]);
});

test('the same page scanned: the title over the table, told by the height of its capitals, is no row', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'layout-row-rules-scan-'));
  try {
    await makePdf(join(dir, 'page.pdf'), [
      (p) => {
        head(p);
        body(p);
      },
    ]);
    execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', join(dir, 'page.pdf'), join(dir, 'page')]);
    const doc = await readPagedDocument(join(dir, 'page.png'), 'image', { guidance: { tableStart: {} } });
    assert.equal(doc.sheets.length, 1);
    const rows = await sheetRows(doc.sheets[0]!);
    assert.deepEqual(rows[0], ['', '2011', '2012', '2013']);
    assert.deepEqual(rows.at(-1), ['Excise taxes', '72', '80', '87']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('short rules over subtotal figures, the labels left of them: one table, each label beside its figures', async () => {
  const doc = await read('subtotal-rules', [
    (p) => {
      head(p);
      body(p);
      subtotalRules(p, 141.5);
      subtotalRules(p, 184.5);
      const [label, ...figures] = TOTAL;
      row(p, label!, 92, 186, figures);
      // A running head up the right margin, beside the rows.
      p.sideways('SUMMARY TABLES', 530, 190, { size: 11 });
    },
  ]);
  assert.equal(doc.sheets.length, 1);
  assert.deepEqual(await sheetRows(doc.sheets[0]!), [['', '2011', '2012', '2013'], ...BODY.map(([, , cells]) => cells), TOTAL]);
});

test('a caption line with a number in it, across the columns, does not join the columns of figures under it', async () => {
  const doc = await read('numbered-caption', [
    (p) => {
      // Set as the body is, in two pieces, each holding a figure: a line of the table's text, not one of its figures.
      p.text('Votes cast in precinct 12 of Chambers County, by candidate and by ballot', 72, 60, { size: 8 });
      p.text('Page 3', 440, 60, { size: 8 });
      row(p, 'Jill Stein', 72, 72, ['1', '0.28', '12']);
      row(p, 'Gary Johnson', 72, 83, ['5', '1.39', '40']);
      row(p, 'Hillary Clinton', 72, 94, ['59', '16.39', '301']);
    },
  ]);
  assert.equal(doc.sheets.length, 1);
  const rows = await sheetRows(doc.sheets[0]!);
  assert.deepEqual(rows.slice(-3), [
    ['Jill Stein', '1', '0.28', '12'],
    ['Gary Johnson', '5', '1.39', '40'],
    ['Hillary Clinton', '59', '16.39', '301'],
  ]);
});

// Layout engine on digital PDFs generated here: exact rows of the tables it finds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sheetRows } from '../../activities/documents/sheet-rows.js';
import type { DocumentContent } from '../../activities/documents/types.js';
import type { PageDrawer } from '../fixtures/layout/make-pdf.js';
import { generatedPdfs } from '../fixtures/layout/read-generated.js';

const read = generatedPdfs('layout-test-');

const rowsOf = (doc: DocumentContent, index = 0): Promise<string[][]> => sheetRows(doc.sheets[index]!);

/** Figures right-aligned at x1 (Helvetica figures are 0.556 em wide, "," and "." 0.278; 10 pt). */
function rightAligned(p: PageDrawer, t: string, x1: number, top: number): void {
  p.text(t, x1 - [...t].reduce((w, c) => w + (/[.,]/u.test(c) ? 2.78 : 5.56), 0), top);
}

/** One line of a table with no rules: cell texts at the column lefts xs, empty cells skipped. */
function lineAt(p: PageDrawer, xs: readonly number[], top: number, cells: readonly string[], opts: { size?: number; bold?: boolean } = {}): void {
  cells.forEach((t, k) => t && p.text(t, xs[k]!, top, opts));
}

test('ruled table: grid lines give rows and columns', async () => {
  const doc = await read('ruled', [
    (p) => {
      p.text('Price list', 72, 60, { size: 14, bold: true });
      p.grid([72, 200, 300, 400], [100, 120, 140, 160], [['Item', 'Qty', 'Price'], ['Apple', '3', '1.20'], ['Banana', '12', '0.50']], { boldFirstRow: true });
    },
  ]);
  assert.equal(doc.pageCount, 1);
  assert.equal(doc.sheets.length, 1);
  assert.equal(doc.sheets[0]!.name, 'page 1 table 1');
  assert.equal(doc.sheets[0]!.page, 1);
  assert.equal(doc.sheets[0]!.startMarker, 'Price list');
  assert.deepEqual(await rowsOf(doc), [
    ['Item', 'Qty', 'Price'],
    ['Apple', '3', '1.20'],
    ['Banana', '12', '0.50'],
  ]);
});

test('whitespace-aligned table with a header on two lines merged into one row', async () => {
  const doc = await read('aligned', [
    (p) => {
      p.text('Quarterly figures for the northern region, in thousands.', 72, 60);
      p.text('Region', 72, 100, { bold: true });
      p.text('Unit', 250, 100, { bold: true });
      p.text('Total', 400, 100, { bold: true });
      p.text('price', 250, 112, { bold: true });
      p.text('amount', 400, 112, { bold: true });
      const data = [['North', '12.50', '1,200.00'], ['South', '9.75', '830.10'], ['East', '11.00', '95.00']];
      data.forEach((r, i) => r.forEach((c, k) => p.text(c, [72, 250, 400][k]!, 130 + i * 14)));
    },
  ]);
  assert.equal(doc.sheets.length, 1);
  assert.deepEqual(await rowsOf(doc), [
    ['Region', 'Unit price', 'Total amount'],
    ['North', '12.50', '1,200.00'],
    ['South', '9.75', '830.10'],
    ['East', '11.00', '95.00'],
  ]);
});

test('cells that wrap onto several lines are joined with one space', async () => {
  const doc = await read('wrapped', [
    (p) => {
      p.grid(
        [72, 140, 330, 430],
        [100, 120, 160, 180, 232],
        [
          ['Code', 'Description', 'Amount'],
          ['A-1', ['Large red apples from the', 'southern orchards'], '10.00'],
          ['B-2', 'Pears', '4.50'],
          ['C-3', ['Boxes of mixed', 'seasonal fruit, washed', 'and packed'], '22.00'],
        ],
        { boldFirstRow: true },
      );
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['Code', 'Description', 'Amount'],
    ['A-1', 'Large red apples from the southern orchards', '10.00'],
    ['B-2', 'Pears', '4.50'],
    ['C-3', 'Boxes of mixed seasonal fruit, washed and packed', '22.00'],
  ]);
});

test('wrapped cells in a table with no rules', async () => {
  const doc = await read('wrapped-plain', [
    (p) => {
      const xs = [72, 130, 330];
      ['Code', 'Description', 'Amount'].forEach((t, k) => p.text(t, xs[k]!, 100, { bold: true }));
      const rows: [string, string[], string][] = [
        ['A-1', ['Large red apples from the', 'southern orchards'], '10.00'],
        ['B-2', ['Pears'], '4.50'],
        ['C-3', ['Boxes of mixed fruit washed', 'and packed'], '22.00'],
      ];
      let top = 118;
      for (const [code, lines, amount] of rows) {
        p.text(code, xs[0]!, top);
        p.text(amount, xs[2]!, top);
        lines.forEach((l, i) => p.text(l, xs[1]!, top + i * 12));
        top += lines.length * 12 + 8;
      }
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['Code', 'Description', 'Amount'],
    ['A-1', 'Large red apples from the southern orchards', '10.00'],
    ['B-2', 'Pears', '4.50'],
    ['C-3', 'Boxes of mixed fruit washed and packed', '22.00'],
  ]);
});

test('a sparse first row under a bold header is a row, not a wrap of the header', async () => {
  const doc = await read('sparse', [
    (p) => {
      const xs = [72, 152, 232, 312, 392, 472];
      lineAt(p, xs, 100, ['Code', 'Name', 'Jan', 'Feb', 'Mar', 'Note'], { bold: true });
      lineAt(p, xs, 115, ['A1', 'Widgets', '5', '', '7', '']);
      lineAt(p, xs, 128, ['A2', 'Gadgets', '', '3', '', 'discontinued']);
      lineAt(p, xs, 141, ['A3', 'Bolts', '', '', '12', '']);
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['Code', 'Name', 'Jan', 'Feb', 'Mar', 'Note'],
    ['A1', 'Widgets', '5', '', '7', ''],
    ['A2', 'Gadgets', '', '3', '', 'discontinued'],
    ['A3', 'Bolts', '', '', '12', ''],
  ]);
});

test('a record’s bold name wrapped onto a plain description is one cell', async () => {
  const doc = await read('bold-name', [
    (p) => {
      const xs = [72, 330, 420];
      lineAt(p, xs, 100, ['Item', 'Qty', 'Amount'], { bold: true });
      p.text('Professional services, March', 72, 116, { bold: true });
      lineAt(p, xs, 116, ['', '10', '1,200.00']);
      p.text('remote support and migration', 72, 128);
      p.text('Licence renewal, enterprise', 72, 144, { bold: true });
      lineAt(p, xs, 144, ['', '1', '900.00']);
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['Item', 'Qty', 'Amount'],
    ['Professional services, March remote support and migration', '10', '1,200.00'],
    ['Licence renewal, enterprise', '1', '900.00'],
  ]);
});

test('column labels stacked over five lines, the top line alone above the rest, make one header; a title above stays out', async () => {
  const doc = await read('stacked', [
    (p) => {
      p.text('Coverage and participation', 72, 40, { size: 12, bold: true });
      const xs = [72, 180, 300, 420];
      const header = [
        ['', '', '', 'Combined'],
        ['', 'Share of', '', 'weighted school'],
        ['', 'desired', 'National', 'participation'],
        ['', 'population', 'exclusion', 'and student'],
        ['Education system', 'coverage', 'rate', 'response rate'],
      ];
      header.forEach((r, i) => lineAt(p, xs, 70 + i * 10, r, { size: 8 }));
      lineAt(p, xs, 130, ['Australia', '100', '4', '93'], { size: 8 });
      lineAt(p, xs, 144, ['Austria', '100', '5', '98'], { size: 8 });
    },
  ]);
  assert.equal(doc.sheets.length, 1);
  assert.equal(doc.sheets[0]!.startMarker, 'Coverage and participation');
  assert.deepEqual(await rowsOf(doc), [
    ['Education system', 'Share of desired population coverage', 'National exclusion rate', 'Combined weighted school participation and student response rate'],
    ['Australia', '100', '4', '93'],
    ['Austria', '100', '5', '98'],
  ]);
});

/** Labels wrapped onto two lines, the figures between the lines (middle) or on the last (bottom). */
function wrappedLabels(p: PageDrawer): void {
  const xs = [72, 300, 400];
  lineAt(p, xs, 100, ['Item', 'Qty', 'Amount'], { bold: true });
  lineAt(p, xs, 118, ['Travel expenses reimbursed', '', '']);
  lineAt(p, xs, 124, ['', '1', '86.40']);
  lineAt(p, xs, 130, ['at cost (see annex B)', '', '']);
  lineAt(p, xs, 146, ['Licence', '2', '900.00']);
  lineAt(p, xs, 162, ['Consulting services for the', '', '']);
  lineAt(p, xs, 174, ['March migration', '10', '1,200.00']);
  lineAt(p, xs, 190, ['Support', '1', '50.00']);
}
const WRAPPED_LABEL_ROWS = [
  ['Item', 'Qty', 'Amount'],
  ['Travel expenses reimbursed at cost (see annex B)', '1', '86.40'],
  ['Licence', '2', '900.00'],
  ['Consulting services for the March migration', '10', '1,200.00'],
  ['Support', '1', '50.00'],
];

test('labels of neighbouring columns that nearly touch on a header line keep the figures’ columns apart', async () => {
  const doc = await read('touching-labels', [
    (p) => {
      const size = 8;
      // Two labels 5 pt apart on each header line: closer than a column gap, wider than a word space.
      const pair = (top: number, left: string, right: string): void => {
        p.text(left, 338 - p.width(left, { size }), top, { size });
        p.text(right, 343, top, { size });
      };
      p.text('Country', 72, 100, { size });
      pair(100, 'Weighted student', 'and student');
      pair(110, 'response rate', 'response rate');
      [['Austria', '95', '93'], ['Belgium', '97', '82'], ['Canada', '96', '94']].forEach(([name, a, b], i) => {
        const top = 124 + i * 12;
        p.text(name!, 72, top, { size });
        p.text(a!, 330 - p.width(a!, { size }), top, { size });
        p.text(b!, 350, top, { size });
      });
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['Country', 'Weighted student response rate', 'and student response rate'],
    ['Austria', '95', '93'],
    ['Belgium', '97', '82'],
    ['Canada', '96', '94'],
  ]);
});

test('a label spanning two columns of figures leaves their columns apart, parting over them; a label overhanging its column stays whole', async () => {
  const doc = await read('spanning-label', [
    (p) => {
      p.text('Region', 72, 100);
      p.text('Sales volume in tonnes', 215, 100);
      p.text('Share of exports', 335, 100);
      p.text('Planned', 212, 114);
      p.text('Actual', 300, 114);
      [['North', '1,120', '1,080', '12'], ['South', '940', '1,010', '7'], ['East', '85', '90', '31']].forEach((cells, i) => {
        const top = 130 + i * 14;
        p.text(cells[0]!, 72, top);
        rightAligned(p, cells[1]!, 250, top);
        rightAligned(p, cells[2]!, 330, top);
        rightAligned(p, cells[3]!, 400, top);
      });
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['Region', 'Sales volume Planned', 'in tonnes Actual', 'Share of exports'],
    ['North', '1,120', '1,080', '12'],
    ['South', '940', '1,010', '7'],
    ['East', '85', '90', '31'],
  ]);
});

test('a caption flush with the table’s left edge right above its header stays its title', async () => {
  const doc = await read('caption-tight', [
    (p) => {
      const xs = [72, 220, 320];
      p.text('Table 2. Budget', 72, 100, { bold: true });
      lineAt(p, xs, 112, ['Item', 'Planned', 'Spent'], { bold: true });
      lineAt(p, xs, 126, ['Salaries', '1,200', '1,150']);
      lineAt(p, xs, 139, ['Travel', '80', '95']);
    },
  ]);
  assert.equal(doc.sheets[0]!.startMarker, 'Table 2. Budget');
  assert.deepEqual(await rowsOf(doc), [
    ['Item', 'Planned', 'Spent'],
    ['Salaries', '1,200', '1,150'],
    ['Travel', '80', '95'],
  ]);
});

test('labels wrapped over lines with the figures at the bottom or in the middle of the row make one row each', async () => {
  assert.deepEqual(await rowsOf(await read('wrapped-aligned', [wrappedLabels])), WRAPPED_LABEL_ROWS);
});

test('the same read by OCR, which knows no fonts', async () => {
  const doc = await read('wrapped-aligned-ocr', [wrappedLabels], { guidance: { tableStart: {}, ocr: 'always' } });
  assert.deepEqual(await rowsOf(doc), WRAPPED_LABEL_ROWS);
});

test('a section heading right above its first row, in a font of its own, stays a row', async () => {
  const doc = await read('section-heading', [
    (p) => {
      const xs = [72, 300, 400];
      lineAt(p, xs, 100, ['Account', '2023', '2024'], { bold: true });
      lineAt(p, xs, 116, ['Cash and cash equivalents', '1,204', '1,530']);
      lineAt(p, xs, 136, ['Receivables from customers, net', '', ''], { bold: true });
      lineAt(p, xs, 148, ['Trade receivables', '880', '912']);
      lineAt(p, xs, 160, ['Other receivables', '45', '51']);
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['Account', '2023', '2024'],
    ['Cash and cash equivalents', '1,204', '1,530'],
    ['Receivables from customers, net', '', ''],
    ['Trade receivables', '880', '912'],
    ['Other receivables', '45', '51'],
  ]);
});

test('a total under the last rule of a table ruled only between rows is its last row; a note under it is not', async () => {
  const doc = await read('total-under-rule', [
    (p) => {
      const xs = [72, 300, 370, 470];
      lineAt(p, xs, 130, ['Description', 'Qty', 'Unit price', 'Amount'], { bold: true });
      p.hline(72, 540, 143);
      lineAt(p, xs, 150, ['Consulting, March', '10', '120.00', '1,200.00']);
      lineAt(p, xs, 164, ['Licence', '2', '450.00', '900.00']);
      p.hline(72, 540, 178);
      lineAt(p, xs, 185, ['', '', 'Total', '2,100.00'], { bold: true });
      lineAt(p, xs, 199, ['Prices exclude VAT.', '', '', '']);
    },
  ]);
  assert.equal(doc.sheets.length, 1);
  assert.deepEqual(await rowsOf(doc), [
    ['Description', 'Qty', 'Unit price', 'Amount'],
    ['Consulting, March', '10', '120.00', '1,200.00'],
    ['Licence', '2', '450.00', '900.00'],
    ['', '', 'Total', '2,100.00'],
  ]);
});

test('labels left-aligned over figures right-aligned at their column’s end make one column each', async () => {
  const doc = await read('label-apart', [
    (p) => {
      lineAt(p, [72, 250, 330, 430], 100, ['Description', 'Quantity', 'Unit price', 'Amount'], { bold: true });
      [
        ['Consulting', '10', '120.00', '1,200.00'],
        ['Licence', '2', '450.00', '900.00'],
      ].forEach((r, i) => {
        p.text(r[0]!, 72, 116 + i * 14);
        [310, 400, 530].forEach((x, k) => rightAligned(p, r[k + 1]!, x, 116 + i * 14));
      });
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['Description', 'Quantity', 'Unit price', 'Amount'],
    ['Consulting', '10', '120.00', '1,200.00'],
    ['Licence', '2', '450.00', '900.00'],
  ]);
});

/** A statement of accounts whose labels lead to their figures by dot leaders, two kinds of them. */
function withLeaders(rows: readonly (readonly [string, string, string])[]): (p: PageDrawer) => void {
  return (p) => {
    rightAligned(p, '2024', 430, 100);
    rightAligned(p, '2023', 510, 100);
    const leader = (from: number): string => {
      let dots = '.';
      while (from + p.width(`${dots} .`) < 360) dots += ' .';
      return dots;
    };
    rows.forEach(([label, a, b], i) => {
      const top = 120 + i * 16;
      // Leaders in the label's own run of text, or tight ("......") after a gap.
      if (i % 2 === 0) p.text(`${label} ${leader(72 + p.width(`${label} `))}`, 72, top);
      else {
        p.text(label, 72, top);
        p.text('..........................', 280, top);
      }
      rightAligned(p, a, 430, top);
      rightAligned(p, b, 510, top);
    });
  };
}

const LEADER_ROWS = [
  ['Revenue', '1,234', '1,100'],
  ['Cost of sales', '(800)', '(700)'],
  ['Other income', '12', '...'],
  ['Administrative expenses', '(90)', '(88)'],
  ['Operating profit', '356', '312'],
] as const;

test('dot leaders between labels and their figures are dropped; "..." for a missing figure stays', async () => {
  const doc = await read('leaders', [withLeaders(LEADER_ROWS)]);
  assert.deepEqual(await rowsOf(doc), [['', '2024', '2023'], ...LEADER_ROWS]);
});

test('the same read by OCR: leaders erased from the picture, not read as words; "..." alone read back', async () => {
  const doc = await read('leaders-ocr', [withLeaders(LEADER_ROWS)], { guidance: { tableStart: {}, ocr: 'always' } });
  assert.deepEqual(await rowsOf(doc), [['', '2024', '2023'], ...LEADER_ROWS]);
});

test('a row missing its last figure is a row of its own, not the wrap of the row above', async () => {
  const doc = await read('missing-figure', [
    (p) => {
      rightAligned(p, '2024', 430, 100);
      rightAligned(p, '2023', 510, 100);
      [
        ['Cost of sales', '(800)', '(700)'],
        ['Other income', '12', ''],
        ['Operating profit', '446', '400'],
      ].forEach(([label, a, b], i) => {
        p.text(label!, 72, 116 + i * 16);
        rightAligned(p, a!, 430, 116 + i * 16);
        if (b) rightAligned(p, b, 510, 116 + i * 16);
      });
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['', '2024', '2023'],
    ['Cost of sales', '(800)', '(700)'],
    ['Other income', '12', ''],
    ['Operating profit', '446', '400'],
  ]);
});

/**
 * A bank statement: a debit or a credit in each row, descriptions wrapped onto a second line or
 * set over three lines, the first of them short ("Direct debit").
 */
function bankStatement(p: PageDrawer): void {
  p.text('Account statement 1 March 2024 - 31 March 2024', 72, 70);
  const right = (t: string, x1: number, top: number, bold = false): void => p.text(t, x1 - p.width(t, { bold }), top, { bold });
  p.text('Date', 72, 120, { bold: true });
  p.text('Description', 140, 120, { bold: true });
  [['Debit', 400], ['Credit', 470], ['Balance', 540]].forEach(([t, x]) => right(t as string, x as number, 120, true));
  p.hline(72, 540, 134);
  let top = 144;
  for (const [date, description, debit, credit, balance] of BANK_LINES) {
    p.text(date, 72, top);
    description.forEach((t, i) => p.text(t, 140, top + i * 12));
    [debit, credit, balance].forEach((t, k) => t && right(t, [400, 470, 540][k]!, top));
    top += 12 * description.length + 6;
  }
}

const BANK_LINES = [
  ['01/03/2024', ['Opening balance'], '', '', '1,250.00'],
  ['02/03/2024', ['Card payment TESCO STORES 2231', 'LONDON GB'], '45.20', '', '1,204.80'],
  ['03/03/2024', ['Salary ACME LTD'], '', '2,400.00', '3,604.80'],
  ['04/03/2024', ['Direct debit', 'BRITISH GAS', 'REF 5521 0093'], '62.10', '', '3,542.70'],
  ['05/03/2024', ['Transfer to savings'], '500.00', '', '3,042.70'],
  ['09/03/2024', ['Card payment AMAZON MARKETPLACE', 'EU SARL LUXEMBOURG'], '23.99', '', '3,018.71'],
  ['12/03/2024', ['Refund AMAZON'], '', '23.99', '3,042.70'],
] as const;

const BANK_ROWS = [['Date', 'Description', 'Debit', 'Credit', 'Balance'], ...BANK_LINES.map(([d, desc, ...amounts]) => [d, desc.join(' '), ...amounts])];

test('a bank statement: a debit or a credit left empty in each row, descriptions wrapped or set over lines', async () => {
  assert.deepEqual(await rowsOf(await read('bank', [bankStatement])), BANK_ROWS);
});

test('the same read by OCR: no piece of a word read back as a word of its own', async () => {
  const doc = await read('bank-ocr', [bankStatement], { guidance: { tableStart: {}, ocr: 'always' } });
  assert.deepEqual(await rowsOf(doc), BANK_ROWS);
});

test('an invoice’s items ruled under their header, the number column’s label overhanging it, the totals under the last rule', async () => {
  const doc = await read('invoice-items', [
    (p) => {
      const right = (t: string, x1: number, top: number, bold = false): void => p.text(t, x1 - p.width(t, { bold }), top, { bold });
      p.text('Pos.', 72, 210, { bold: true });
      p.text('Description', 105, 210, { bold: true });
      right('Qty', 360, 210, true);
      p.text('Unit', 370, 210, { bold: true });
      right('Unit price', 470, 210, true);
      right('Amount', 540, 210, true);
      p.hline(72, 540, 224);
      [
        ['1', 'Widget A, stainless steel', '10', 'pcs', '12.50', '125.00'],
        ['2', 'Installation service', '3', 'h', '85.00', '255.00'],
      ].forEach(([n, d, q, u, price, amount], i) => {
        const top = 234 + i * 18;
        p.text(n!, 72, top);
        p.text(d!, 105, top);
        right(q!, 360, top);
        p.text(u!, 370, top);
        right(price!, 470, top);
        right(amount!, 540, top);
      });
      p.hline(72, 540, 266);
      [['Subtotal', '380.00'], ['VAT 19%', '72.20'], ['Total EUR', '452.20']].forEach(([label, v], i) => {
        p.text(label!, 380, 276 + i * 14, { bold: i === 2 });
        right(v!, 540, 276 + i * 14, i === 2);
      });
    },
  ]);
  assert.equal(doc.sheets.length, 1);
  assert.deepEqual(await rowsOf(doc), [
    ['Pos.', 'Description', 'Qty', 'Unit', 'Unit price', 'Amount'],
    ['1', 'Widget A, stainless steel', '10', 'pcs', '12.50', '125.00'],
    ['2', 'Installation service', '3', 'h', '85.00', '255.00'],
    ['', '', '', 'Subtotal', '', '380.00'],
    ['', '', '', 'VAT 19%', '', '72.20'],
    ['', '', '', 'Total EUR', '', '452.20'],
  ]);
});

/** A table with a wrapped last cell, then its notes set smaller right under it. */
function notesUnder(p: PageDrawer): void {
  const xs = [72, 250, 350];
  lineAt(p, xs, 100, ['Region', 'Sales', 'Growth'], { bold: true });
  lineAt(p, xs, 115, ['North', '1,200', '4.5%']);
  lineAt(p, xs, 128, ['West and the former Central', '1,430', '7.0%']);
  lineAt(p, xs, 140, ['region', '', '']);
  p.text('1 Net of returns.', 72, 153, { size: 8 });
  p.text('2 Includes the former Central region from 1 July.', 72, 163, { size: 8 });
}

const NOTES_UNDER_ROWS = [
  ['Region', 'Sales', 'Growth'],
  ['North', '1,200', '4.5%'],
  ['West and the former Central region', '1,430', '7.0%'],
];

test('notes set smaller right under a table are not its rows; a wrapped last cell is', async () => {
  assert.deepEqual(await rowsOf(await read('notes-under', [notesUnder])), NOTES_UNDER_ROWS);
});

test('the same read by OCR, the notes told by the height of their capitals and figures', async () => {
  const doc = await read('notes-under-ocr', [notesUnder], { guidance: { tableStart: {}, ocr: 'always' } });
  assert.deepEqual(await rowsOf(doc), NOTES_UNDER_ROWS);
});

test('by OCR, a wrapped last line of short letters ("area") is no note: it joins its cell', async () => {
  const doc = await read('short-letters-ocr', [
    (p) => {
      const xs = [72, 250, 350];
      lineAt(p, xs, 100, ['Region', 'Sales', 'Growth'], { bold: true });
      lineAt(p, xs, 115, ['North', '1,200', '4.5%']);
      lineAt(p, xs, 127, ['West and the former Central', '1,430', '7.0%']);
      lineAt(p, xs, 139, ['area', '', '']);
    },
  ], { guidance: { tableStart: {}, ocr: 'always' } });
  assert.deepEqual(await rowsOf(doc), [
    ['Region', 'Sales', 'Growth'],
    ['North', '1,200', '4.5%'],
    ['West and the former Central area', '1,430', '7.0%'],
  ]);
});

test('notes in the last band of a ruled table, under its rows, are not a row', async () => {
  const doc = await read('ruled-notes', [
    (p) => {
      p.grid([72, 200, 300, 400], [100, 120, 140, 160], [['Item', 'Qty', 'Price'], ['Apple (1)', '3', '1.20'], ['Banana', '12', '0.50']], { boldFirstRow: true });
      p.vline(72, 160, 192);
      p.vline(400, 160, 192);
      p.hline(72, 400, 192);
      p.text('(1) Prices include VAT at the standard rate of twenty per cent.', 76, 164, { size: 8 });
      p.text('Source: company accounts for the year 2024.', 76, 176, { size: 8 });
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['Item', 'Qty', 'Price'],
    ['Apple (1)', '3', '1.20'],
    ['Banana', '12', '0.50'],
  ]);
});

test('a grouped table: records under a group’s first one, the group cell left empty, stay rows even where figures fill their column', async () => {
  const doc = await read('grouped', [
    (p) => {
      const xs = [72, 180, 300];
      lineAt(p, xs, 100, ['Region', 'Product', 'Sales'], { bold: true });
      lineAt(p, xs, 115, ['North', 'Apples', '1,120.00']);
      lineAt(p, xs, 128, ['', 'Pears', '1,080.00']);
      lineAt(p, xs, 141, ['South', 'Cherries', '1,060.00']);
      lineAt(p, xs, 154, ['', 'Plums', '1,075.00']);
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['Region', 'Product', 'Sales'],
    ['North', 'Apples', '1,120.00'],
    ['', 'Pears', '1,080.00'],
    ['South', 'Cherries', '1,060.00'],
    ['', 'Plums', '1,075.00'],
  ]);
});

test('a column of lone currency signs joins the figures on its right', async () => {
  const doc = await read('currency-signs', [
    (p) => {
      lineAt(p, [72, 330, 450], 100, ['', '2023', '2022'], { bold: true });
      const line = (top: number, label: string, a: string, b: string, signs: boolean): void => {
        p.text(label, 72, top);
        if (signs) lineAt(p, [300, 420], top, ['$', '$']);
        rightAligned(p, a, 370, top);
        rightAligned(p, b, 490, top);
      };
      line(118, 'Revenue', '12,345', '11,002', true);
      line(132, 'Cost of sales', '(7,210)', '(6,544)', false);
      line(146, 'Net income', '5,135', '4,458', true);
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['', '2023', '2022'],
    ['Revenue', '$ 12,345', '$ 11,002'],
    ['Cost of sales', '(7,210)', '(6,544)'],
    ['Net income', '$ 5,135', '$ 4,458'],
  ]);
});

test('a page in two columns of prose: a small table in one column is read apart from the prose beside it', async () => {
  const prose = 'Revenue grew strongly in the second half of the year as new customers in the northern region came on board and existing customers renewed their contracts at higher volumes than a year earlier.';
  const doc = await read('two-columns', [
    (p) => {
      /** The prose set in a column 220 points wide from x; returns the height under it. */
      const column = (x: number, top: number): number => {
        let line = '';
        let y = top;
        for (const w of prose.split(' ')) {
          if (line && p.width(`${line} ${w}`) > 220) {
            p.text(line, x, y);
            y += 13;
            line = '';
          }
          line = line ? `${line} ${w}` : w;
        }
        p.text(line, x, y);
        return y + 13;
      };
      column(72, column(72, 100) + 10);
      const top = column(320, 100) + 10;
      lineAt(p, [320, 430, 490], top, ['Segment', '2024', '2023'], { bold: true });
      [['North', '1,204', '980'], ['South', '870', '905'], ['Total', '2,074', '1,885']].forEach((r, i) => lineAt(p, [320, 430, 490], top + 15 + i * 13, r));
      column(320, top + 70);
    },
  ]);
  assert.equal(doc.sheets.length, 1);
  assert.deepEqual(await rowsOf(doc), [
    ['Segment', '2024', '2023'],
    ['North', '1,204', '980'],
    ['South', '870', '905'],
    ['Total', '2,074', '1,885'],
  ]);
});

test('two tables on one page are told apart', async () => {
  const doc = await read('two', [
    (p) => {
      p.text('Orders', 72, 70, { bold: true });
      p.grid([72, 200, 300], [90, 110, 130, 150], [['Order', 'Total'], ['1001', '25.00'], ['1002', '13.40']], { boldFirstRow: true });
      p.text('The second table lists the customers who placed these orders last month.', 72, 190);
      p.text('Customers', 72, 230, { bold: true });
      ['Name', 'Country', 'Since'].forEach((t, k) => p.text(t, [72, 220, 380][k]!, 260, { bold: true }));
      [['Ada', 'UK', '2019'], ['Linus', 'Finland', '2021']].forEach((r, i) => r.forEach((t, k) => p.text(t, [72, 220, 380][k]!, 276 + i * 14)));
    },
  ]);
  assert.equal(doc.sheets.length, 2);
  assert.deepEqual(await rowsOf(doc, 0), [['Order', 'Total'], ['1001', '25.00'], ['1002', '13.40']]);
  assert.deepEqual(await rowsOf(doc, 1), [['Name', 'Country', 'Since'], ['Ada', 'UK', '2019'], ['Linus', 'Finland', '2021']]);
  assert.equal(doc.sheets[0]!.name, 'page 1 table 1');
  assert.equal(doc.sheets[1]!.name, 'page 1 table 2');
  assert.equal(doc.sheets[0]!.startMarker, 'Orders');
  assert.equal(doc.sheets[1]!.startMarker, 'Customers');
});

function continuedTable(repeatHeader: boolean): ((p: PageDrawer) => void)[] {
  const xs = [72, 200, 330, 460];
  const header = ['Date', 'Description', 'Amount'];
  return [
    (p) => {
      p.text('Statement', 72, 60, { bold: true });
      p.grid(xs, [700, 720, 740, 760], [header, ['2024-01-02', 'Coffee', '3.20'], ['2024-01-03', 'Train', '12.00']], { boldFirstRow: true });
    },
    (p) => {
      const body = [['2024-01-04', 'Lunch', '9.90'], ['2024-01-05', 'Books', '31.00']];
      if (repeatHeader) p.grid(xs, [72, 92, 112, 132], [header, ...body], { boldFirstRow: true });
      else p.grid(xs, [72, 92, 112], body);
      p.text('1 of 2', 300, 760);
    },
  ];
}

test('a table continued on the next page with its header repeated is one table', async () => {
  const doc = await read('continued', continuedTable(true));
  assert.equal(doc.pageCount, 2);
  assert.equal(doc.sheets.length, 1);
  assert.deepEqual(await rowsOf(doc), [
    ['Date', 'Description', 'Amount'],
    ['2024-01-02', 'Coffee', '3.20'],
    ['2024-01-03', 'Train', '12.00'],
    ['2024-01-04', 'Lunch', '9.90'],
    ['2024-01-05', 'Books', '31.00'],
  ]);
});

/** Three pages of a ledger under a running head and over a page number, its header repeated. */
function ledgerPages(): ((p: PageDrawer) => void)[] {
  const records = Array.from({ length: 12 }, (_, i) => [`Customer ${i + 1} Ltd`, ['Germany', 'France', 'Spain'][i % 3]!, String(i + 2), `${(i + 1) * 110}.50`]);
  return [0, 1, 2].map((n) => (p) => {
    p.text('Northwind Traders GmbH - Sales ledger', 72, 40, { size: 8 });
    p.text('Confidential', 490, 40, { size: 8 });
    let top = 80;
    if (n === 0) {
      p.text('Sales by customer, Q1 2024', 72, 70, { size: 13, bold: true });
      top = 100;
    }
    const xs = [72, 250, 400, 480];
    lineAt(p, xs, top, ['Customer', 'Country', 'Orders', 'Revenue'], { bold: true });
    records.slice(n * 4, n * 4 + 4).forEach((r, i) => lineAt(p, xs, top + 16 + i * 14, r));
    p.text(`Page ${n + 1} of 3`, 290, 760, { size: 8 });
  });
}

test('running heads and page numbers are no rows: a ledger over three pages is one table under its title', async () => {
  const doc = await read('ledger', ledgerPages());
  assert.equal(doc.sheets.length, 1);
  assert.equal(doc.sheets[0]!.startMarker, 'Sales by customer, Q1 2024');
  const rows = await rowsOf(doc);
  assert.deepEqual(rows.slice(0, 2), [
    ['Customer', 'Country', 'Orders', 'Revenue'],
    ['Customer 1 Ltd', 'Germany', '2', '110.50'],
  ]);
  assert.equal(rows.length, 13);
  assert.deepEqual(rows[12], ['Customer 12 Ltd', 'Spain', '13', '1320.50']);
  // The running text is still there for fields.
  assert.equal(doc.lines.filter((l) => l.text.startsWith('Page ')).length, 3);
});

test('on a one-page document, a running head set small above the title is no row either', async () => {
  const doc = await read('ledger-one-page', [ledgerPages()[0]!]);
  assert.equal(doc.sheets.length, 1);
  assert.equal(doc.sheets[0]!.startMarker, 'Sales by customer, Q1 2024');
  assert.deepEqual((await rowsOf(doc))[0], ['Customer', 'Country', 'Orders', 'Revenue']);
});

test('a table continued on the next page without a header is one table', async () => {
  const doc = await read('continued-bare', continuedTable(false));
  assert.equal(doc.sheets.length, 1);
  assert.equal((await rowsOf(doc)).length, 5);
});

test('a table continued without a header, whose header moved the first page’s column boundaries, is one table', async () => {
  // Labels left-aligned over figures right-aligned at x 310, 400 and 530.
  const items = (p: PageDrawer, from: number, to: number): void => {
    for (let n = from; n <= to; n++) {
      const top = 116 + (n - from) * 14;
      p.text(`Item ${n}`, 72, top);
      rightAligned(p, `${n}`, 310, top);
      rightAligned(p, `${n}.00`, 400, top);
      rightAligned(p, `${n * n}.00`, 530, top);
    }
  };
  const doc = await read('continued-moved', [
    (p) => {
      lineAt(p, [72, 250, 330, 430], 100, ['Description', 'Quantity', 'Unit price', 'Amount'], { bold: true });
      items(p, 1, 3);
    },
    (p) => items(p, 4, 5),
  ]);
  assert.equal(doc.sheets.length, 1);
  assert.deepEqual(await rowsOf(doc), [
    ['Description', 'Quantity', 'Unit price', 'Amount'],
    ['Item 1', '1', '1.00', '1.00'],
    ['Item 2', '2', '2.00', '4.00'],
    ['Item 3', '3', '3.00', '9.00'],
    ['Item 4', '4', '4.00', '16.00'],
    ['Item 5', '5', '5.00', '25.00'],
  ]);
});

test('guidance pages and progress: only requested pages are read, one report per page', async () => {
  const reports: [number, number][] = [];
  const doc = await read('progress', continuedTable(true), { guidance: { tableStart: {}, pages: [2] }, onProgress: (d, t) => reports.push([d, t]) });
  assert.deepEqual(reports, [[1, 1]]);
  assert.ok(doc.lines.every((l) => l.page === 2));
  assert.deepEqual(await rowsOf(doc), [['Date', 'Description', 'Amount'], ['2024-01-04', 'Lunch', '9.90'], ['2024-01-05', 'Books', '31.00']]);
});

test('a ruled table of text with a figure in one row: the rows of text above it are rows, not a header of two lines', async () => {
  const rows = [
    ['Hello', 'My name is Sultan'],
    ['I am from North Carolina', 'Where are you from?'],
    ['1234', 'I have 47 cats'],
    ['Are you a window?', 'My name is Jeremy in English'],
    ['Jeremy is Jeremy in Arabic', ''],
  ];
  const doc = await read('text-grid', [(p) => p.grid([72, 306, 540], [92, 120, 148, 176, 204, 232], rows)]);
  assert.equal(doc.sheets.length, 1);
  assert.deepEqual(await rowsOf(doc), rows);
});

test('years naming the columns are the header: ranges broken over two lines, a label spanning two of them', async () => {
  const doc = await read('years', [
    (p) => {
      p.text('Table 3. Budget by year', 72, 60, { size: 12, bold: true });
      const right = [300, 350, 400, 455, 505];
      const line = (top: number, label: string, cells: readonly string[]): void => {
        if (label) p.text(label, 72, top);
        cells.forEach((t, k) => t && p.text(t, right[k]! - p.width(t), top));
      };
      p.text('Totals', 466 - p.width('Totals') / 2, 88);
      line(100, '', ['2020', '2021', '2022', '2018–', '2018–']);
      line(111, '', ['', '', '', '2020', '2022']);
      line(126, 'Revenue:', []);
      line(138, 'Sales', ['1,200', '1,310', '1,405', '3,610', '3,915']);
      line(150, 'Services', ['410', '455', '470', '1,290', '1,335']);
      line(165, 'Costs:', []);
      line(177, 'Staff', ['900', '940', '985', '2,730', '2,825']);
    },
  ]);
  assert.equal(doc.sheets.length, 1);
  assert.equal(doc.sheets[0]!.startMarker, 'Table 3. Budget by year');
  assert.deepEqual(await rowsOf(doc), [
    ['', '2020', '2021', '2022', 'Totals 2018–2020', '2018–2022'],
    ['Revenue:', '', '', '', '', ''],
    ['Sales', '1,200', '1,310', '1,405', '3,610', '3,915'],
    ['Services', '410', '455', '470', '1,290', '1,335'],
    ['Costs:', '', '', '', '', ''],
    ['Staff', '900', '940', '985', '2,730', '2,825'],
  ]);
});

test('years in the body of a table with a header stay rows: a table of periods', async () => {
  const doc = await read('periods', [
    (p) => {
      [['Project', 'From', 'To'], ['Bridge', '2011', '2012'], ['Tunnel', '2013', '2014'], ['Harbour', '2015', '2016']].forEach((r, i) =>
        r.forEach((t, k) => p.text(t, [72, 250, 350][k]!, 100 + 14 * i, { bold: i === 0 })),
      );
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [['Project', 'From', 'To'], ['Bridge', '2011', '2012'], ['Tunnel', '2013', '2014'], ['Harbour', '2015', '2016']]);
});

test('a row of years with the unit in its stub cell is the header, under the labels over its years', async () => {
  const doc = await read('statement', [
    (p) => {
      const right = [400, 480];
      const line = (top: number, label: string, cells: readonly string[], bold = false): void => {
        if (label) p.text(label, 72, top, { bold });
        cells.forEach((t, k) => t && p.text(t, right[k]! - p.width(t, { bold }), top, { bold }));
      };
      line(90, '', ['Audited', 'Unaudited'], true);
      line(102, '(in thousands)', ['2023', '2022'], true);
      line(120, 'Revenue', ['12,345', '11,000']);
      line(132, 'Cost of revenue', ['(5,000)', '(4,500)']);
      line(144, 'Gross profit', ['7,345', '6,500']);
    },
  ]);
  assert.deepEqual(await rowsOf(doc), [
    ['(in thousands)', 'Audited 2023', 'Unaudited 2022'],
    ['Revenue', '12,345', '11,000'],
    ['Cost of revenue', '(5,000)', '(4,500)'],
    ['Gross profit', '7,345', '6,500'],
  ]);
});

test('a table under a row of years repeated on its next page is one table; the repeated years are no row', async () => {
  const right = [400, 480];
  const page = (first: number) => (p: PageDrawer) => {
    const line = (top: number, label: string, cells: readonly string[], bold = false): void => {
      if (label) p.text(label, 72, top, { bold });
      cells.forEach((t, k) => p.text(t, right[k]! - p.width(t, { bold }), top, { bold }));
    };
    line(100, '', ['2023', '2022'], true);
    for (let i = 0; i < 3; i++) line(118 + i * 14, `Item ${first + i}`, [`${(first + i) * 10},000`, `${(first + i) * 9},500`]);
  };
  const doc = await read('years-continued', [page(1), page(4)]);
  assert.equal(doc.sheets.length, 1);
  assert.deepEqual(await rowsOf(doc), [
    ['', '2023', '2022'],
    ...[1, 2, 3, 4, 5, 6].map((n) => [`Item ${n}`, `${n * 10},000`, `${n * 9},500`]),
  ]);
});

test('closing dates naming the columns are the header, merged with the label over one of them; a record’s dates beside its amount stay a row', async () => {
  const right = [300, 400, 480];
  const line = (p: PageDrawer, top: number, label: string, cells: readonly string[], bold = false): void => {
    if (label) p.text(label, 72, top, { bold });
    cells.forEach((t, k) => t && p.text(t, right[k]! - p.width(t, { bold }), top, { bold }));
  };
  const balance = await read('closing-dates', [
    (p) => {
      line(p, 90, '', ['', '', 'Restated'], true);
      line(p, 102, '', ['Note', '31 Dec 2023', '31 Dec 2022'], true);
      line(p, 120, 'Property, plant and equipment', ['4', '12,345', '11,000']);
      line(p, 132, 'Inventories', ['5', '2,100', '1,900']);
      line(p, 144, 'Trade receivables', ['6', '3,050', '2,870']);
    },
  ]);
  assert.deepEqual(await rowsOf(balance), [
    ['', 'Note', '31 Dec 2023', 'Restated 31 Dec 2022'],
    ['Property, plant and equipment', '4', '12,345', '11,000'],
    ['Inventories', '5', '2,100', '1,900'],
    ['Trade receivables', '6', '3,050', '2,870'],
  ]);
  const schedule = await read('dates-table', [
    (p) => {
      line(p, 90, 'Phase', ['Start', 'End', 'Budget'], true);
      line(p, 104, '', ['01.01.2023', '30.06.2023', '1,200']);
      line(p, 118, '', ['01.07.2023', '31.12.2023', '1,450']);
      line(p, 132, '', ['01.01.2024', '30.06.2024', '980']);
    },
  ]);
  assert.deepEqual((await rowsOf(schedule)).slice(0, 2), [
    ['Phase', 'Start', 'End', 'Budget'],
    ['', '01.01.2023', '30.06.2023', '1,200'],
  ]);
});

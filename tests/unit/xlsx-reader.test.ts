import assert from 'node:assert/strict';
import { mkdtemp, rm, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { DocumentError } from '../../activities/documents/errors.js';
import { openSpreadsheet } from '../../activities/documents/spreadsheet/index.js';
import { columnIndex } from '../../activities/documents/spreadsheet/xlsx-sheet.js';
import { sheetRows } from '../../activities/documents/sheet-rows.js';
import type { SheetSource } from '../../activities/documents/types.js';

const allRows = (sheet: SheetSource) => sheetRows(sheet);

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'distill-xlsx-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const march1 = new Date(Date.UTC(2024, 2, 1));

async function writeOrdersWorkbook(path: string): Promise<void> {
  const book = new ExcelJS.Workbook();
  const orders = book.addWorksheet('Orders');
  orders.addRow(['Date ISO', 'Date US', 'Price', 'Rate', 'Total', 'Note', 'Link', 'Paid', 'Check', 'Sum', 'Amount']);
  orders.addRow([
    march1,
    march1,
    1234.5,
    0.12,
    { formula: 'C2*2', result: 2469 },
    { richText: [{ text: 'Hello ' }, { font: { bold: true }, text: 'World' }] },
    { text: 'Our site', hyperlink: 'https://example.com' },
    true,
    { error: '#DIV/0!' },
    0.1 + 0.2,
    1234.5,
  ]);
  const row2 = orders.getRow(2);
  row2.getCell(1).numFmt = 'yyyy-mm-dd';
  row2.getCell(2).numFmt = 'm/d/yy';
  row2.getCell(3).numFmt = '"$"#,##0.00';
  row2.getCell(4).numFmt = '0%';
  row2.getCell(11).numFmt = '#,##0.00';
  // Row 3: a styled cell without a value, which Excel writes as an empty <c>; row 4 is absent.
  orders.getCell('A3').numFmt = '0.00';
  orders.getCell('B5').value = 'Merged';
  orders.mergeCells('B5:D6');
  orders.getCell('A6').value = 'below';
  orders.getCell('A7').value = 'a';
  orders.getCell('E7').value = 'e';
  orders.getCell('A8').value = 12345678901234;
  orders.getCell('B8').value = 'line one\r\nline two';

  const second = book.addWorksheet('Second sheet');
  second.addRow(['id', 'name']);
  second.addRow([1, 'Ada & Grace <x>']);
  await book.xlsx.writeFile(path);
}

describe('XLSX reader', () => {
  it('reads every sheet in workbook order with values as Excel shows them', async () => {
    const path = join(dir, 'orders.xlsx');
    await writeOrdersWorkbook(path);
    const sheets = await openSpreadsheet(path, 'excel', '.xlsx');
    assert.deepEqual(
      sheets.map((s) => s.name),
      ['Orders', 'Second sheet'],
    );
    const [orders, second] = sheets;
    assert.ok(orders && second);
    assert.deepEqual(await allRows(orders), [
      ['Date ISO', 'Date US', 'Price', 'Rate', 'Total', 'Note', 'Link', 'Paid', 'Check', 'Sum', 'Amount'],
      ['2024-03-01', '3/1/24', '$1,234.50', '12%', '2469', 'Hello World', 'Our site', 'TRUE', '#DIV/0!', '0.3', '1,234.50'],
      ['', 'Merged'],
      ['below'],
      ['a', '', '', '', 'e'],
      ['12345678901234', 'line one\r\nline two'],
    ]);
    assert.deepEqual(await allRows(second), [
      ['id', 'name'],
      ['1', 'Ada & Grace <x>'],
    ]);
  });

  it('starts again from the first row on every batches() call', async () => {
    const path = join(dir, 'again.xlsx');
    await writeOrdersWorkbook(path);
    const [orders] = await openSpreadsheet(path, 'excel', '.xlsx');
    assert.ok(orders);
    const first = await allRows(orders);
    // Stop one pass early: the next pass must still see everything.
    for await (const batch of orders.batches()) {
      assert.ok(batch.length > 0);
      break;
    }
    assert.deepEqual(await allRows(orders), first);
  });

  it('follows the workbook sheet list, not the part numbers', async () => {
    const path = join(dir, 'order.xlsx');
    const book = new ExcelJS.Workbook();
    const zeta = book.addWorksheet('Zeta'); // stored as sheet1.xml
    zeta.addRow(['z']);
    const alpha = book.addWorksheet('Alpha');
    alpha.addRow(['a']);
    // exceljs lists sheets by orderNo, which its typings leave out: Zeta is shown after Alpha.
    (zeta as unknown as { orderNo: number }).orderNo = 5;
    await book.xlsx.writeFile(path);
    const sheets = await openSpreadsheet(path, 'excel', '.xlsx');
    assert.deepEqual(
      sheets.map((s) => s.name),
      ['Alpha', 'Zeta'],
    );
    assert.deepEqual(await allRows(sheets[0] as SheetSource), [['a']]);
    assert.deepEqual(await allRows(sheets[1] as SheetSource), [['z']]);
  });

  it('applies the 1904 date system of Mac workbooks', async () => {
    const path = join(dir, 'mac.xlsx');
    const book = new ExcelJS.Workbook();
    book.properties.date1904 = true;
    const sheet = book.addWorksheet('Dates');
    sheet.addRow([march1]);
    sheet.getCell('A1').numFmt = 'yyyy-mm-dd';
    await book.xlsx.writeFile(path);
    const [dates] = await openSpreadsheet(path, 'excel', '.xlsx');
    assert.deepEqual(await allRows(dates as SheetSource), [['2024-03-01']]);
  });

  it('streams a large sheet in batches', async () => {
    const path = join(dir, 'large.xlsx');
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
    const sheet = writer.addWorksheet('Big');
    sheet.addRow(['n', 'label', 'amount']).commit();
    for (let r = 1; r <= 30_000; r++) sheet.addRow([r, `row ${r % 100}`, r / 4]).commit();
    sheet.commit();
    await writer.commit();
    const [big] = await openSpreadsheet(path, 'excel', '.xlsx');
    assert.ok(big);
    let rows = 0;
    let batches = 0;
    let last: string[] = [];
    for await (const batch of big.batches()) {
      batches++;
      assert.ok(batch.length <= 5000);
      rows += batch.length;
      last = batch[batch.length - 1] ?? [];
    }
    assert.equal(rows, 30_001);
    assert.ok(batches >= 6);
    assert.deepEqual(last, ['30000', 'row 0', '7500']);
  });

  it('reads a workbook with an .xls name that is really XLSX', async () => {
    const path = join(dir, 'renamed.xls');
    await writeOrdersWorkbook(path);
    const sheets = await openSpreadsheet(path, 'excel', '.xls');
    assert.equal(sheets.length, 2);
  });

  it('rejects a damaged workbook with a DocumentError', async () => {
    const good = join(dir, 'good.xlsx');
    await writeOrdersWorkbook(good);
    const bytes = await readFile(good);

    const truncated = join(dir, 'truncated.xlsx');
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await assert.rejects(openSpreadsheet(truncated, 'excel', '.xlsx'), (error: unknown) => {
      assert.ok(error instanceof DocumentError);
      assert.match(error.message, /^The Excel file could not be read: /);
      return true;
    });

    const garbage = join(dir, 'garbage.xlsx');
    await writeFile(garbage, Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(2000, 7)]));
    await assert.rejects(openSpreadsheet(garbage, 'excel', '.xlsx'), DocumentError);

    const pdf = join(dir, 'report.xlsx');
    await writeFile(pdf, '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
    await assert.rejects(openSpreadsheet(pdf, 'excel', '.xlsx'), /not an Excel workbook/);

    const empty = join(dir, 'empty.xlsx');
    await writeFile(empty, '');
    await assert.rejects(openSpreadsheet(empty, 'excel', '.xlsx'), /empty/);
  });

  it('reports damage inside a sheet part when its rows are read', async () => {
    const good = join(dir, 'corrupt-sheet.xlsx');
    await writeOrdersWorkbook(good);
    const bytes = Buffer.from(await readFile(good));
    // Flip bytes in the middle of the first sheet's compressed data; the directory stays intact.
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    const local = bytes.indexOf(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04])]), 0);
    assert.ok(local >= 0);
    const at = bytes.indexOf(name);
    const dataStart = at + name.length + bytes.readUInt16LE(at - 2);
    for (let k = dataStart + 10; k < dataStart + 60; k++) bytes[k] = 0xff - (bytes[k] ?? 0);
    const broken = join(dir, 'broken-sheet.xlsx');
    await writeFile(broken, bytes);
    const sheets = await openSpreadsheet(broken, 'excel', '.xlsx');
    await assert.rejects(allRows(sheets[0] as SheetSource), DocumentError);
  });
});

describe('columnIndex', () => {
  it('reads column letters of a cell reference', () => {
    assert.equal(columnIndex('A1'), 0);
    assert.equal(columnIndex('Z9'), 25);
    assert.equal(columnIndex('AA10'), 26);
    assert.equal(columnIndex('XFD1048576'), 16383);
    assert.equal(columnIndex('12'), -1);
  });
});

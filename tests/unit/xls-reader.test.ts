import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { DocumentError } from '../../activities/documents/errors.js';
import { classifyWorkbookBytes, openSpreadsheet } from '../../activities/documents/spreadsheet/index.js';
import { renderCell } from '../../activities/documents/spreadsheet/xls.js';
import { sheetRows } from '../../activities/documents/sheet-rows.js';
import type { SheetSource } from '../../activities/documents/types.js';

async function allRows(sheet: SheetSource | undefined): Promise<string[][]> {
  assert.ok(sheet);
  return sheetRows(sheet);
}

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'distill-xls-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

function buildWorkbook(): XLSX.WorkBook {
  const first = XLSX.utils.aoa_to_sheet([
    ['Name', 'Date', 'Amount', 'Rate', 'Ok', 'Sum', 'Id'],
    ['Café', 45352, 1234.5, 0.12, true, 0.1 + 0.2, 12345678901234],
    [],
    ['x', null, null, null, null, null, null, 'far'],
  ]);
  const cell = (ref: string): XLSX.CellObject => {
    const found = first[ref] as XLSX.CellObject | undefined;
    assert.ok(found, ref);
    return found;
  };
  cell('B2').z = 'm/d/yy';
  cell('C2').z = '#,##0.00';
  cell('D2').z = '0%';
  first['!merges'] = [{ s: { r: 3, c: 1 }, e: { r: 3, c: 3 } }];
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, first, 'First');
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([[1, 'two']]), 'Second');
  return book;
}

describe('XLS reader', () => {
  it('round-trips a simple BIFF8 workbook with the XLSX conventions', async () => {
    const path = join(dir, 'simple.xls');
    await writeFile(path, XLSX.write(buildWorkbook(), { type: 'buffer', bookType: 'xls' }) as Buffer);
    const sheets = await openSpreadsheet(path, 'excel', '.xls');
    assert.deepEqual(
      sheets.map((s) => s.name),
      ['First', 'Second'],
    );
    assert.deepEqual(await allRows(sheets[0]), [
      ['Name', 'Date', 'Amount', 'Rate', 'Ok', 'Sum', 'Id'],
      ['Café', '3/1/24', '1,234.50', '12%', 'TRUE', '0.3', '12345678901234'],
      ['x', '', '', '', '', '', '', 'far'],
    ]);
    assert.deepEqual(await allRows(sheets[1]), [['1', 'two']]);
    // Re-iterable like every SheetSource.
    assert.equal((await allRows(sheets[0])).length, 3);
  });

  it('reads an HTML table saved with an .xls name', async () => {
    const path = join(dir, 'export.xls');
    await writeFile(path, '<html><body><table><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table></body></html>');
    const [sheet] = await openSpreadsheet(path, 'excel', '.xls');
    assert.deepEqual(await allRows(sheet), [
      ['a', '1'],
      ['b', '2'],
    ]);
  });

  it('reads a CSV saved with an .xls name as CSV', async () => {
    const path = join(dir, 'report.xls');
    await writeFile(path, 'name;qty\nApple;3\n');
    const [sheet] = await openSpreadsheet(path, 'excel', '.xls');
    assert.equal(sheet?.name, 'report');
    assert.deepEqual(await allRows(sheet), [
      ['name', 'qty'],
      ['Apple', '3'],
    ]);
  });

  it('rejects a damaged XLS with a DocumentError', async () => {
    const path = join(dir, 'broken.xls');
    const bytes = Buffer.alloc(4096, 0x41);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(bytes);
    await writeFile(path, bytes);
    await assert.rejects(openSpreadsheet(path, 'excel', '.xls'), (error: unknown) => {
      assert.ok(error instanceof DocumentError);
      assert.equal(error.message, 'The Excel file could not be read: it is damaged or not in a format this service can read');
      assert.ok(error.cause, 'the SheetJS detail is kept for the logs');
      return true;
    });
  });

  it('renders error cells and missing formats', () => {
    assert.equal(renderCell({ t: 'e', v: 0x07 }, false), '#DIV/0!');
    assert.equal(renderCell({ t: 'n', v: 1234.5 }, false), '1234.5');
    assert.equal(renderCell({ t: 'n', v: 45352, z: 14 }, false), '3/1/24');
    assert.equal(renderCell(undefined, false), '');
  });
});

describe('classifyWorkbookBytes', () => {
  it('tells workbook kinds apart by their first bytes', () => {
    assert.equal(classifyWorkbookBytes(Buffer.from('PK\x03\x04rest')), 'zip');
    assert.equal(classifyWorkbookBytes(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0])), 'sheetjs-binary');
    assert.equal(classifyWorkbookBytes(Buffer.from('\uFEFF  <?xml version="1.0"?><Workbook>')), 'sheetjs-markup');
    assert.equal(classifyWorkbookBytes(Buffer.from([0x09, 0x04, 0x06, 0x00, 0x00])), 'sheetjs-binary');
    assert.equal(classifyWorkbookBytes(Buffer.from('a,b\n1,2\n')), 'text');
    assert.equal(classifyWorkbookBytes(Buffer.from('%PDF-1.7')), 'other');
    assert.equal(classifyWorkbookBytes(Buffer.from([1, 2, 3, 0, 5])), 'other');
    assert.equal(classifyWorkbookBytes(Buffer.alloc(0)), 'empty');
  });
});

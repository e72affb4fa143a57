import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import iconv from 'iconv-lite';
import { DocumentError } from '../../activities/documents/errors.js';
import { readCsvBatches, sniffCsvFormat } from '../../activities/documents/spreadsheet/csv.js';
import { createChunkDecoder, detectEncoding } from '../../activities/documents/spreadsheet/encoding.js';
import { openSpreadsheet } from '../../activities/documents/spreadsheet/index.js';
import { sheetRows } from '../../activities/documents/sheet-rows.js';
import type { SheetSource } from '../../activities/documents/types.js';

async function allRows(sheet: SheetSource | undefined): Promise<string[][]> {
  assert.ok(sheet);
  return sheetRows(sheet);
}

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'distill-csv-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function csvFile(name: string, bytes: Buffer | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

describe('CSV reader', () => {
  it('reads a UTF-8 file with a BOM without keeping the BOM', async () => {
    const path = await csvFile('bom.csv', Buffer.from('\uFEFFname,city\r\nZoë,Köln\r\n', 'utf8'));
    const [sheet] = await openSpreadsheet(path, 'csv', '.csv');
    assert.equal(sheet?.name, 'bom');
    assert.deepEqual(await allRows(sheet), [
      ['name', 'city'],
      ['Zoë', 'Köln'],
    ]);
  });

  it('reads UTF-16 LE and BE by their BOM', async () => {
    const text = 'name\tcity\nZoë\t東京\n';
    const le = await csvFile('le.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const be = await csvFile('be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(text, 'utf-16be')]));
    const expected = [
      ['name', 'city'],
      ['Zoë', '東京'],
    ];
    assert.deepEqual(await allRows((await openSpreadsheet(le, 'csv', '.csv'))[0]), expected);
    assert.deepEqual(await allRows((await openSpreadsheet(be, 'csv', '.csv'))[0]), expected);
  });

  it('decodes a file that is not UTF-8 as windows-1252', async () => {
    const path = await csvFile('latin.csv', Buffer.from([...Buffer.from('drink,price\ncaf'), 0xe9, ...Buffer.from(',3 '), 0x80, 0x0a]));
    const [sheet] = await openSpreadsheet(path, 'csv', '.csv');
    assert.deepEqual(await allRows(sheet), [
      ['drink', 'price'],
      ['café', '3 €'],
    ]);
  });

  it('detects the semicolon of a European export', async () => {
    const path = await csvFile('eu.csv', 'Artikel;Preis;Menge\nApfel;1,50;3\n"Birne; gelb";2,25;10\n');
    const [sheet] = await openSpreadsheet(path, 'csv', '.csv');
    assert.deepEqual(await allRows(sheet), [
      ['Artikel', 'Preis', 'Menge'],
      ['Apfel', '1,50', '3'],
      ['Birne; gelb', '2,25', '10'],
    ]);
  });

  it('splits TSV on tabs only', async () => {
    const path = await csvFile('data.tsv', 'a\tb,c;d\n1\t2,5\n');
    const [sheet] = await openSpreadsheet(path, 'tsv', 'tsv');
    assert.equal(sheet?.name, 'data');
    assert.deepEqual(await allRows(sheet), [
      ['a', 'b,c;d'],
      ['1', '2,5'],
    ]);
  });

  it('keeps characters split across 1 MiB reads intact', async () => {
    // Rows of 9 bytes ("é" has two, "€" three) put the 1 MiB read boundaries at byte 4, 8, 3 and 7
    // of a row: inside "é", at the line end, before "é" and inside "€".
    const row = 'xy,é€\n';
    const path = await csvFile('split.csv', row.repeat(500_000));
    const format = await sniffCsvFormat(path);
    assert.equal(format.encoding, 'utf-8');
    let rows = 0;
    for await (const batch of readCsvBatches(path, format)) {
      for (const cells of batch) assert.deepEqual(cells, ['xy', 'é€']);
      rows += batch.length;
    }
    assert.equal(rows, 500_000);
  });

  it('streams a 200k-row file in batches, again on every call', async () => {
    const path = join(dir, 'big.csv');
    const out = createWriteStream(path);
    out.write('id,name,note\n');
    for (let r = 0; r < 200_000; r += 1000) {
      let chunk = '';
      for (let k = r; k < r + 1000; k++) chunk += `${k},name ${k},"note, with ""quotes""\nand a line"\n`;
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');

    const [sheet] = await openSpreadsheet(path, 'csv', '.csv');
    assert.ok(sheet);
    for (let pass = 0; pass < 2; pass++) {
      let rows = 0;
      let batches = 0;
      let last: string[] = [];
      for await (const batch of sheet.batches()) {
        batches++;
        assert.ok(batch.length >= 1 && batch.length <= 5000);
        rows += batch.length;
        last = batch[batch.length - 1] ?? [];
      }
      assert.equal(rows, 200_001);
      assert.ok(batches >= 40 && batches <= 101, `${batches} batches`);
      assert.deepEqual(last, ['199999', 'name 199999', 'note, with "quotes"\nand a line']);
    }
  });

  it('stops reading when the consumer stops', async () => {
    const path = await csvFile('stop.csv', 'a,b\n'.repeat(20_000));
    const [sheet] = await openSpreadsheet(path, 'csv', '.csv');
    assert.ok(sheet);
    for await (const batch of sheet.batches()) {
      assert.ok(batch.length > 0);
      break;
    }
    assert.equal((await allRows(sheet)).length, 20_000);
  });

  it('reads a workbook uploaded under a .csv name as a workbook', async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['a', 1]]), 'Data');
    const path = await csvFile('actually.csv', XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const sheets = await openSpreadsheet(path, 'csv', '.csv');
    assert.equal(sheets[0]?.name, 'Data');
    assert.deepEqual(await allRows(sheets[0]), [['a', '1']]);
  });

  it('rejects a binary file under a .csv name', async () => {
    const path = await csvFile('image.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    await assert.rejects(openSpreadsheet(path, 'csv', '.csv'), (error: unknown) => {
      assert.ok(error instanceof DocumentError);
      assert.equal(error.message, 'The CSV file could not be read: it is not a text file');
      return true;
    });
    const pdf = await csvFile('report.csv', '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n');
    await assert.rejects(openSpreadsheet(pdf, 'csv', '.csv'), /not a text file/);
  });

  it('returns no rows for an empty file', async () => {
    const path = await csvFile('empty.csv', '');
    assert.deepEqual(await allRows((await openSpreadsheet(path, 'csv', '.csv'))[0]), []);
  });
});

describe('detectEncoding', () => {
  it('reads byte order marks', () => {
    assert.deepEqual(detectEncoding(Buffer.from([0xef, 0xbb, 0xbf, 0x61]), true), { encoding: 'utf-8', bomLength: 3 });
    assert.deepEqual(detectEncoding(Buffer.from([0xff, 0xfe, 0x61, 0]), true), { encoding: 'utf-16le', bomLength: 2 });
    assert.deepEqual(detectEncoding(Buffer.from([0xfe, 0xff, 0, 0x61]), true), { encoding: 'utf-16be', bomLength: 2 });
  });

  it('tells UTF-8 from windows-1252', () => {
    assert.equal(detectEncoding(Buffer.from('café', 'utf8'), true).encoding, 'utf-8');
    assert.equal(detectEncoding(Buffer.from([0x63, 0x61, 0x66, 0xe9]), true).encoding, 'windows-1252');
  });

  it('does not hold a character cut off at the end of a partial sample against UTF-8', () => {
    const head = Buffer.from('abcé', 'utf8').subarray(0, 4); // ends with the first byte of "é"
    assert.equal(detectEncoding(head, false).encoding, 'utf-8');
    assert.equal(detectEncoding(head, true).encoding, 'windows-1252');
  });

  it('recognises UTF-16 without a BOM', () => {
    assert.equal(detectEncoding(Buffer.from('name,city\nAda,Rome\n', 'utf16le'), true).encoding, 'utf-16le');
  });
});

describe('createChunkDecoder', () => {
  it('carries a UTF-8 character split across chunks, byte by byte', () => {
    const bytes = Buffer.from('aé€😀b', 'utf8');
    const decoder = createChunkDecoder('utf-8');
    let text = '';
    for (const byte of bytes) text += decoder.write(Buffer.from([byte]));
    text += decoder.end();
    assert.equal(text, 'aé€😀b');
  });

  it('decodes windows-1252 and UTF-16 BE in pieces', () => {
    const latin = createChunkDecoder('windows-1252');
    assert.equal(latin.write(Buffer.from([0x63, 0xe9])) + latin.end(), 'cé');
    const be = createChunkDecoder('utf-16be');
    const bytes = iconv.encode('Zoë', 'utf-16be');
    assert.equal(be.write(bytes.subarray(0, 3)) + be.write(bytes.subarray(3)) + be.end(), 'Zoë');
  });
});

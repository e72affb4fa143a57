import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { formatGeneral, formatNumber } from '../../activities/documents/spreadsheet/format.js';
import { SheetRowsHandler, type SheetContext } from '../../activities/documents/spreadsheet/xlsx-sheet.js';
import { decodeXmlText, parseAttributes, XmlScanner } from '../../activities/documents/spreadsheet/xml.js';

const context: SheetContext = {
  sharedStrings: ['Name', 'Ada &amp; Co — literal', 'x'],
  styleFormats: ['General', 'yyyy-mm-dd', '#,##0.00', '0%', 'm/d/yy'],
  date1904: false,
};

// A worksheet as different writers produce it: prefixed tags, comments, CDATA, entities, a `>`
// inside an attribute value, cells without references, inline strings with phonetic runs.
const sheetXml =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<x:sheetViews><x:sheetView tabSelected="1" note="a > b"/></x:sheetViews>' +
  '<x:sheetData>' +
  '<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="C1" t="s"><x:v>1</x:v></x:c></x:row>' +
  '<!-- a comment with <c> inside -->' +
  '<x:row r="2"><x:c r="A2" s="1"><x:v>45352</x:v></x:c><x:c r="B2" s="2"><x:v>1234.5</x:v></x:c>' +
  '<x:c r="C2" s="3"><x:v>0.12</x:v></x:c><x:c r="D2" t="b"><x:v>1</x:v></x:c>' +
  '<x:c r="E2" t="e"><x:f>1/0</x:f><x:v>#DIV/0!</x:v></x:c></x:row>' +
  '<x:row r="3"><x:c r="A3" s="2"/><x:c r="B3"><x:f>A1</x:f></x:c></x:row>' +
  '<x:row r="4" spans="1:3">\n  <x:c t="inlineStr"><x:is><x:r><x:t xml:space="preserve">Tōkyō </x:t></x:r>' +
  '<x:r><x:t>tower</x:t></x:r><x:rPh sb="0" eb="1"><x:t>とうきょう</x:t></x:rPh></x:is></x:c>\n' +
  '  <x:c t="str"><x:f>"a"&amp;"b"</x:f><x:v>a&amp;b &lt;ok&gt; &#233;&#x20AC;</x:v></x:c>' +
  '<x:c t="inlineStr"><x:is><x:t><![CDATA[<raw> & text]]></x:t></x:is></x:c></x:row>' +
  '<x:row r="6"><x:c r="B6" t="inlineStr"><x:is><x:t>one_x000D_\ntwo</x:t></x:is></x:c>' +
  '<x:c r="C6" t="d" s="4"><x:v>2024-03-01T00:00:00</x:v></x:c><x:c r="D6"><x:v>0.30000000000000004</x:v></x:c></x:row>' +
  '</x:sheetData><x:mergeCells count="1"><x:mergeCell ref="A1:B1"/></x:mergeCells>' +
  '</x:worksheet>';

const expected = [
  ['Name', '', 'Ada &amp; Co — literal'],
  ['2024-03-01', '1,234.50', '12%', 'TRUE', '#DIV/0!'],
  ['Tōkyō tower', 'a&b <ok> é€', '<raw> & text'],
  ['', 'one\r\ntwo', '3/1/24', '0.3'],
];

function scan(pieces: string[]): string[][] {
  const handler = new SheetRowsHandler(context);
  const scanner = new XmlScanner(handler);
  const rows: string[][] = [];
  for (const piece of pieces) {
    scanner.push(piece);
    rows.push(...handler.rows.splice(0));
  }
  scanner.end();
  rows.push(...handler.rows.splice(0));
  return rows;
}

describe('worksheet XML', () => {
  it('renders cells by type and style, places them by reference and skips empty rows', () => {
    assert.deepEqual(scan([sheetXml]), expected);
  });

  it('gives the same rows however the XML is split into chunks', () => {
    assert.deepEqual(scan([...sheetXml]), expected);
    let seed = 7;
    for (let round = 0; round < 300; round++) {
      const pieces: string[] = [];
      for (let at = 0; at < sheetXml.length; ) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const size = 1 + (seed % 40);
        pieces.push(sheetXml.slice(at, at + size));
        at += size;
      }
      assert.deepEqual(scan(pieces), expected, `round ${round}`);
    }
  });
});

describe('XML helpers', () => {
  it('decodes entities', () => {
    assert.equal(decodeXmlText('a &lt;b&gt; &amp;amp; &quot;&apos; &#65;&#x42; &unknown;'), 'a <b> &amp; "\' AB &unknown;');
  });

  it('parses attributes by local name', () => {
    assert.deepEqual(parseAttributes(` name="Q1 &amp; Q2" sheetId='3' r:id="rId7"`), {
      name: 'Q1 & Q2',
      sheetId: '3',
      id: 'rId7',
    });
  });
});

describe('number formats', () => {
  it('formats like Excel', () => {
    assert.equal(formatNumber(45352, 'yyyy-mm-dd'), '2024-03-01');
    assert.equal(formatNumber(45352, 'm/d/yy'), '3/1/24');
    assert.equal(formatNumber(45352.75, 'dd/mm/yyyy hh:mm'), '01/03/2024 18:00');
    assert.equal(formatNumber(1234.5, '#,##0.00'), '1,234.50');
    assert.equal(formatNumber(1234.5, '"$"#,##0.00'), '$1,234.50');
    assert.equal(formatNumber(-1234.5, '#,##0.00;(#,##0.00)'), '(1,234.50)');
    assert.equal(formatNumber(1234.5, '_("$"* #,##0.00_)'), '$1,234.50');
    assert.equal(formatNumber(0.12, '0%'), '12%');
    assert.equal(formatNumber(0.125, '0.0%'), '12.5%');
    assert.equal(formatNumber(12345, '0.00E+00'), '1.23E+04');
    assert.equal(formatNumber(5, '@'), '5');
    assert.equal(formatNumber(-5, 'yyyy-mm-dd'), '-5');
    assert.equal(formatNumber(3, '[Red'), '3');
    assert.equal(formatNumber(45352, 'yyyy-mm-dd', true), '2028-03-02');
  });

  it('formats plain dates exactly as SSF does (the fast path must not drift)', () => {
    const ssf = XLSX.SSF as { format(f: string, v: number, o?: { date1904?: boolean }): string };
    const formats = ['yyyy-mm-dd', 'm/d/yy', 'dd\\.mm\\.yyyy', 'dd/mm/yy', 'mm-dd-yyyy', 'YYYY-MM-DD', 'd/m/yyyy;@', 'd" of "m'];
    for (let serial = 61; serial < 2958466; serial += 997) {
      for (const format of formats) {
        assert.equal(formatNumber(serial, format), ssf.format(format, serial), `${format} ${serial}`);
        assert.equal(formatNumber(serial, format, true), ssf.format(format, serial, { date1904: true }), `1904 ${format} ${serial}`);
      }
    }
    assert.equal(formatNumber(45352, 'mmm d, yyyy'), 'Mar 1, 2024');
    // SSF rejects unescaped dots in dates; Excel (and this reader) shows them as they are.
    assert.equal(formatNumber(45352, 'dd.mm.yyyy'), '01.03.2024');
    assert.equal(formatNumber(45352, '[$-407]d.m.yy'), '1.3.24');
    assert.equal(formatNumber(45352.5, 'dd.mm.yyyy hh:mm'), '01.03.2024 12:00');
    assert.equal(formatNumber(1234.5, '#,##0.00'), '1,234.50');
    assert.equal(formatNumber(45352, 'dddd'), 'Friday');
  });

  it('writes General numbers in their shortest natural form', () => {
    assert.equal(formatGeneral(0.1 + 0.2), '0.3');
    assert.equal(formatGeneral(12345678901234), '12345678901234');
    assert.equal(formatGeneral(-0.5), '-0.5');
    assert.equal(formatGeneral(-0), '0');
    assert.equal(formatGeneral(1e-7), '0.0000001');
    assert.equal(formatGeneral(2469), '2469');
    assert.equal(formatNumber(1.1 * 3, 'General'), '3.3');
  });
});

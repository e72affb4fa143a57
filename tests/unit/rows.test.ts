import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countFromMasks, parseColumnList, parseRowFilter } from '../../lib/row-filter.js';
import { ROW_BLOCK, rowRange } from '../../lib/rows.js';
import { copyEscape, copyJsonArray, copyRowLine } from '../../activities/rows/copy-format.js';
import { parseGuidance } from '../../activities/documents/guidance.js';
import { keyFromName, withKeys } from '../../lib/template.js';
import { csvLine } from '../../api/csv.js';
import { sizeMessage } from '../../api/routes/extractions.js';

describe('row filters', () => {
  it('maps filter values to severity masks', () => {
    assert.equal(parseRowFilter(undefined).masks, null);
    assert.deepEqual(parseRowFilter('valid').masks, [0]);
    assert.deepEqual(parseRowFilter('invalid').masks, [1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(parseRowFilter('warn,info').masks, [2, 3, 4, 5, 6, 7]);
    assert.deepEqual(parseRowFilter('valid,error').masks, [0, 1, 3, 5, 7]);
    assert.equal(parseRowFilter('valid,invalid').masks, null);
    assert.equal(parseRowFilter(' Error , warn').text, 'error,warn');
  });
  it('names the unknown value in the spec message', () => {
    assert.throws(() => parseRowFilter('valid,bogus'), { message: "The parameter 'filter' contains invalid value: bogus" });
  });
  it('counts from per-mask counts', () => {
    const counts = [10, 1, 2, 0, 4, 0, 0, 1];
    assert.equal(countFromMasks(counts, null), 18);
    assert.equal(countFromMasks(counts, parseRowFilter('error').masks), 2);
    assert.equal(countFromMasks(counts, parseRowFilter('invalid').masks), 8);
  });
  it('parses column lists', () => {
    assert.deepEqual(parseColumnList('a, b,,a'), ['a', 'b']);
  });
});

describe('row ranges from block counts', () => {
  // Three blocks: masks 0 and 1 counted per block.
  const blocks = [ROW_BLOCK - 10, 10, 0, 0, 0, 0, 0, 0, ROW_BLOCK, 0, 0, 0, 0, 0, 0, 0, 5, 3, 0, 0, 0, 0, 0, 0];
  it('starts the scan in the block holding the offset-th matching row', () => {
    assert.deepEqual(rowRange(blocks, [1], 0, 100), { start: 0, skip: 0, end: null });
    assert.deepEqual(rowRange(blocks, [1], 5, 5), { start: 0, skip: 5, end: ROW_BLOCK });
    assert.deepEqual(rowRange(blocks, [1], 10, 2), { start: 2 * ROW_BLOCK, skip: 0, end: 3 * ROW_BLOCK });
    assert.deepEqual(rowRange(blocks, [0], ROW_BLOCK, 100), { start: ROW_BLOCK, skip: 10, end: 2 * ROW_BLOCK });
    assert.deepEqual(rowRange(blocks, [0, 1], 2 * ROW_BLOCK, 100), { start: 2 * ROW_BLOCK, skip: 0, end: null });
  });
  it('finds nothing past the last matching row', () => {
    assert.equal(rowRange(blocks, [1], 13, 100), null);
    assert.equal(rowRange(blocks, [2], 0, 100), null);
    assert.equal(rowRange([], [0], 0, 100), null);
  });
});

describe('COPY text format', () => {
  it('escapes backslashes, tabs and newlines', () => {
    assert.equal(copyEscape('a\\b\tc\nd\re'), 'a\\\\b\\tc\\nd\\re');
    const line = copyRowLine('7', 3, ['x\ty', 'é'], { a: [{ validate: 'required', severity: 'error', message: 'A is required' }] }, 1);
    assert.equal(line, '7\t3\t1\t{a}\t["x\\\\ty","é"]\t{"a":[{"validate":"required","severity":"error","message":"A is required"}]}\n');
    assert.equal(copyRowLine('7', 0, ['v'], null, 0), '7\t0\t0\t\\N\t["v"]\t\\N\n');
  });
  it('joins plain cells exactly as JSON.stringify would write them', () => {
    const samples = [[], [''], ['a', 'b c', 'é', '日本', '😀'], ['say "hi"', 'back\\slash'], ['tab\there', 'line\nbreak', 'cr\r'], ['\u2028', '\u0001', '\x7f'], ['1', '', '2.5']];
    for (const values of samples) assert.equal(copyJsonArray(values), copyEscape(JSON.stringify(values)), JSON.stringify(values));
  });
  it('never writes a lone surrogate as a \\u escape (Postgres json refuses those)', () => {
    assert.equal(Buffer.from(copyJsonArray(['a\ud800b'])).toString(), '["a\ufffdb"]');
    assert.equal(copyJsonArray(['"q"\udc00']), '["\\\\"q\\\\"\ufffd"]');
  });
});

describe('guidance', () => {
  it('reads documented hints and ignores other text', () => {
    const g = parseGuidance('Please be careful.\npages: 1-3, 5\ndate_format: DD/MM/YYYY\ndecimal_separator: ,\ntable_start.items: Line items');
    assert.deepEqual(g, { pages: [1, 2, 3, 5], dateFormat: 'DD/MM/YYYY', decimalSeparator: ',', tableStart: { items: 'Line items' } });
  });
  it('reads OCR languages as tesseract names, and ignores a malformed list', () => {
    assert.deepEqual(parseGuidance('language: spa').languages, ['spa']);
    assert.deepEqual(parseGuidance('Languages: deu+eng, deu').languages, ['deu', 'eng']);
    assert.deepEqual(parseGuidance('language: script/Latin').languages, ['script/Latin']);
    assert.equal(parseGuidance('language: spanish please!').languages, undefined);
  });
  it('reads whether every page is read by OCR, and ignores other values', () => {
    assert.equal(parseGuidance('ocr: always').ocr, 'always');
    assert.equal(parseGuidance('OCR: Auto').ocr, 'auto');
    assert.equal(parseGuidance('ocr: sometimes').ocr, undefined);
  });
});

describe('template keys', () => {
  it('derives keys from names and keeps them unique', () => {
    assert.equal(keyFromName('Unit Price (€)'), 'unit_price');
    assert.equal(keyFromName('2nd line'), 'c_2nd_line');
    assert.deepEqual(withKeys([{ name: 'Amount' }, { name: 'amount' }, { name: 'X', key: 'x' }]).map((i) => i.key), ['amount', 'amount_2', 'x']);
  });
});

describe('CSV and messages', () => {
  it('quotes only what needs quoting', () => {
    assert.equal(csvLine(['a', 'b,c', 'say "hi"', 'line\nbreak']), 'a,"b,c","say ""hi""","line\nbreak"\r\n');
  });
  it('words the size limit as the spec does', () => {
    assert.equal(sizeMessage(1200 * 1024 ** 2, 1024 ** 3), 'File size 1200 MB exceeds limit of 1 GB');
    assert.equal(sizeMessage(6 * 1024 ** 2, 5 * 1024 ** 2), 'File size 6.0 MB exceeds limit of 5 MB');
  });
});

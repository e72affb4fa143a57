// Bands a picture is handed to tesseract in (bands.ts), and words of a banded reading put back
// in the picture's pixels (parseTsv): on pictures drawn here, with exact expectations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bandImage, blankRowBands, type Band } from '../../activities/documents/ocr/bands.js';
import type { GrayImage } from '../../activities/documents/ocr/gray-image.js';
import { parseTsv } from '../../activities/documents/ocr/tesseract.js';

function blank(width: number, height: number): GrayImage {
  return { width, height, data: new Uint8Array(width * height).fill(255) };
}

/** Lines of "text": `ink` dark rows, then `gap` paper rows, from `from` down to the bottom. */
function lines(img: GrayImage, from: number, ink: number, gap: number): void {
  for (let y = from; y + ink <= img.height; y += ink + gap) {
    // a few glyph-wide strokes, not a full row: ink anywhere in a row makes it not blank
    for (let x = 10; x < img.width - 10; x += 37) for (let r = y; r < y + ink; r++) img.data.fill(40, r * img.width + x, r * img.width + x + 6);
  }
}

const inkIn = (img: GrayImage, y: number): boolean => img.data.subarray(y * img.width, (y + 1) * img.width).some((v) => v < 128);

test('bands about a band tall, each cut in the middle of a run of blank rows', () => {
  const img = blank(400, 1200);
  lines(img, 10, 30, 10);
  // one wider gap in reach of the first cut (300 +- 75): the cut takes the longest run
  img.data.fill(255, 330 * 400, 352 * 400);
  const bands = blankRowBands(img, 300);
  assert.equal(bands.length, 4);
  assert.equal(bands[0]!.top, 0);
  assert.equal(bands.at(-1)!.bottom, 1200);
  bands.slice(1).forEach((b, i) => assert.equal(b.top, bands[i]!.bottom, 'bands follow one another'));
  // lines cover rows 10-39, 50-79, ...: the gap 320-329 runs on to 352 (the wide one)
  assert.equal(bands[0]!.bottom, 320 + Math.floor((352 - 320) / 2));
  for (const b of bands.slice(1)) {
    assert.equal(inkIn(img, b.top), false, `row ${b.top} is blank`);
    assert.ok(b.bottom - b.top >= 150, 'no band under half a band tall');
  }
});

test('no cut where rows are never blank long enough, nor in a picture under one and a half bands tall', () => {
  // lines one row apart: a single blank row is not a gap between lines
  const dense = blank(300, 1200);
  lines(dense, 0, 12, 1);
  assert.deepEqual(blankRowBands(dense, 300), [{ top: 0, bottom: 1200 }]);
  // ink on every row near where cuts would fall: only the cuts that find paper are made
  const mixed = blank(300, 1200);
  lines(mixed, 0, 40, 10);
  for (let y = 200; y < 700; y++) mixed.data[y * 300 + 5] = 0;
  const cuts = blankRowBands(mixed, 300).map((b: Band) => b.top).slice(1);
  // the cuts near rows 300 and 600 find none; the one near 900 does
  assert.equal(cuts.length, 1);
  assert.ok(cuts[0]! >= 825 && cuts[0]! < 975 && !inkIn(mixed, cuts[0]!));
  assert.deepEqual(blankRowBands(blank(300, 440), 300), [{ top: 0, bottom: 440 }]);
});

test('a band is a view of the picture, not a copy', () => {
  const img = blank(10, 30);
  img.data[12 * 10 + 3] = 0;
  const band = bandImage(img, { top: 10, bottom: 20 });
  assert.equal(band.height, 10);
  assert.equal(band.data[2 * 10 + 3], 0);
  assert.equal(band.data.buffer, img.data.buffer);
});

test('a banded reading: words in the picture, lines of different bands kept apart', () => {
  const row = (level: number, page: number, block: number, line: number, x: number, y: number, conf: number, text: string) =>
    [level, page, block, 1, line, level === 5 ? 1 : 0, x, y, 40, 20, conf, text].join('\t');
  const tsv = [
    'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
    row(1, 1, 0, 0, 0, 0, -1, ''),
    row(5, 1, 1, 1, 100, 50, 91, 'Total'),
    row(1, 2, 0, 0, 0, 0, -1, ''),
    row(5, 2, 1, 1, 100, 5, 88, '1,250'),
  ].join('\n');
  const page = parseTsv(tsv, [0, 300]);
  assert.deepEqual(
    page.words.map((w) => [w.text, w.y0, w.y1, w.line]),
    [
      ['Total', 50, 70, '1.1.1'],
      ['1,250', 305, 325, '2.1.1.1'],
    ],
  );
});

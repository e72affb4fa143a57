// Rules found in page pixels, shading edges, erasing before OCR, dropped-ink blobs: on pictures
// drawn here pixel by pixel, with exact expectations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodePgm, parsePgm, type GrayImage } from '../../activities/documents/ocr/gray-image.js';
import { eraseRules, findPixelRules } from '../../activities/documents/ocr/raster-rulings.js';
import { stackBlobs, uncoveredInk, wordsFromStrip } from '../../activities/documents/ocr/dropped-ink.js';
import { restoreDecimalPoints, restoreMinusSigns } from '../../activities/documents/ocr/figure-marks.js';

function blank(width: number, height: number): GrayImage {
  return { width, height, data: new Uint8Array(width * height).fill(255) };
}

function fill(img: GrayImage, x0: number, y0: number, x1: number, y1: number, v: number): void {
  for (let y = y0; y < y1; y++) img.data.fill(v, y * img.width + x0, y * img.width + x1);
}

test('PGM round trip', () => {
  const img = blank(3, 2);
  img.data[4] = 7;
  assert.deepEqual(parsePgm(encodePgm(img)), img);
  assert.equal(parsePgm(new TextEncoder().encode('P6\n1 1\n255\n...')), undefined);
});

test('a ruled grid in pixels: its lines, and nothing for text-sized strokes', () => {
  const img = blank(600, 400);
  // grid: horizontals at y=50 (3 px thick), 150, 250; verticals at x=100, 300, 500 (2 px)
  for (const y of [50, 150, 250]) fill(img, 100, y, 502, y + 3, 0);
  for (const x of [100, 300, 500]) fill(img, x, 50, x + 2, 253, 0);
  // a glyph-like blob: 20 x 30, thick
  fill(img, 150, 80, 170, 110, 0);
  const rules = findPixelRules(img, 300);
  const h = rules.filter((r) => r.horizontal).map((r) => [r.at, r.from, r.to]);
  const v = rules.filter((r) => !r.horizontal).map((r) => [r.at, r.from, r.to]);
  assert.deepEqual(h, [[51.5, 100, 502], [151.5, 100, 502], [251.5, 100, 502]]);
  assert.deepEqual(v, [[101, 50, 253], [301, 50, 253], [501, 50, 253]]);
  const erased = eraseRules(img, rules);
  assert.equal(erased.data[51 * 600 + 200], 255, 'rule erased');
  assert.equal(erased.data[90 * 600 + 160], 0, 'glyph kept');
  assert.equal(img.data[51 * 600 + 200], 0, 'original untouched');
});

test('a grey band: its edges are rules, its shading is cleared and its text kept', () => {
  const img = blank(600, 300);
  fill(img, 50, 100, 550, 140, 191);
  fill(img, 60, 110, 70, 130, 0); // text on the band
  const rules = findPixelRules(img, 300);
  const h = rules.filter((r) => r.horizontal).map((r) => r.at).sort((a, b) => a - b);
  const v = rules.filter((r) => !r.horizontal).map((r) => r.at).sort((a, b) => a - b);
  assert.deepEqual(h, [100, 140]);
  assert.deepEqual(v, [50, 550]);
  const erased = eraseRules(img, rules);
  assert.equal(erased.data[120 * 600 + 300], 255, 'shading cleared');
  assert.equal(erased.data[120 * 600 + 65], 0, 'text kept');
});

test('a dark band with light text: its text turns dark on white', () => {
  const img = blank(600, 300);
  fill(img, 50, 100, 550, 140, 20);
  fill(img, 60, 110, 70, 130, 240); // light text on the band
  const erased = eraseRules(img, findPixelRules(img, 300));
  assert.equal(erased.data[120 * 600 + 300], 255, 'band cleared');
  assert.equal(erased.data[120 * 600 + 65], 0, 'text dark');
});

test('ink no word covers becomes blobs, stacked one per line and mapped back', () => {
  const img = blank(800, 400);
  fill(img, 100, 100, 112, 130, 0); // a lone "1": 12 x 30 px
  fill(img, 300, 100, 400, 130, 0); // a word tesseract read
  fill(img, 600, 300, 601, 301, 0); // a speck
  const words = [{ text: 'word', x0: 300, y0: 100, x1: 400, y1: 130, conf: 95, line: '1.1.1' }];
  const blobs = uncoveredInk(img, words, 300).text;
  assert.deepEqual(blobs, [{ x0: 100, y0: 100, x1: 112, y1: 132 }]);
  const strip = stackBlobs(img, blobs);
  assert.equal(strip.image.width, 12 + 2 * strip.pad);
  const placed = wordsFromStrip(strip, blobs, [{ text: '1', x0: strip.pad, y0: strip.tops[0]!, x1: strip.pad + 12, y1: strip.tops[0]! + 30, conf: 90, line: '1.1.1' }]);
  assert.deepEqual(placed.map(({ text, x0, y0, x1, y1 }) => ({ text, x0, y0, x1, y1 })), [{ text: '1', x0: 100, y0: 100, x1: 112, y1: 130 }]);
});

test('ink in the bottom or top margin beyond every word (a page number) is not read back', () => {
  const img = blank(800, 1000);
  fill(img, 300, 400, 400, 430, 0); // a word tesseract read
  fill(img, 100, 400, 112, 430, 0); // a lone "1" beside it: read back
  fill(img, 390, 940, 402, 970, 0); // a page number at the foot: not read
  fill(img, 390, 30, 402, 60, 0); // a mark at the head: not read
  fill(img, 100, 500, 112, 530, 0); // a lone "7" in the body below the word: read back
  const words = [{ text: 'word', x0: 300, y0: 400, x1: 400, y1: 430, conf: 95, line: '1.1.1' }];
  assert.deepEqual(uncoveredInk(img, words, 300).text, [
    { x0: 100, y0: 400, x1: 112, y1: 432 },
    { x0: 100, y0: 500, x1: 112, y1: 532 },
  ]);
});

test('a bar alone in a cell across the middle of its line is a dash; an underline or a dash inside text is not', () => {
  const img = blank(1200, 400);
  const words = [
    { text: 'Revenue', x0: 100, y0: 100, x1: 300, y1: 130, conf: 95, line: '1.1.1' },
    { text: '1,200', x0: 500, y0: 100, x1: 600, y1: 130, conf: 95, line: '1.1.2' },
    { text: 'Fees', x0: 100, y0: 200, x1: 220, y1: 230, conf: 95, line: '1.2.1' },
    { text: 'net', x0: 262, y0: 200, x1: 340, y1: 230, conf: 95, line: '1.2.1' },
  ];
  words.forEach((w) => fill(img, w.x0, w.y0, w.x1, w.y1, 0));
  fill(img, 800, 113, 840, 117, 0); // a long dash alone in the third column: em dash
  fill(img, 1000, 114, 1012, 118, 0); // a short one: hyphen
  fill(img, 500, 136, 540, 139, 0); // under "1,200": an underline
  fill(img, 232, 213, 250, 217, 0); // between "Fees" and "net": text's own dash
  const { dashes } = uncoveredInk(img, words, 300);
  assert.deepEqual(dashes, [
    { x0: 800, x1: 840, y0: 100, y1: 130, text: '—' },
    { x0: 1000, x1: 1012, y0: 100, y1: 130, text: '-' },
  ]);
});

test('a minus sign tesseract left off a figure is put back, a dash it read before one is "-"; other ink left of a figure is not one', () => {
  const img = blank(1000, 400);
  const figure = (text: string, x0: number, y0: number) => ({ text, x0, y0, x1: x0 + 40, y1: y0 + 21, conf: 90, line: `${y0}` });
  const words = [figure('4.3', 100, 50), figure('1.7', 100, 120), figure('2.5', 100, 190), figure('8.0', 100, 260), figure('12', 400, 50), { ...figure('A', 340, 50), x1: 385 }];
  words.forEach((w) => fill(img, w.x0, w.y0, w.x1, w.y1, 0));
  fill(img, 91, 62, 97, 65, 0); // "-4.3": a bar tight against the figure, mid-height
  fill(img, 91, 138, 97, 141, 0); // "1.7" with a bar at its foot: an underline piece
  fill(img, 85, 196, 97, 211, 0); // "2.5" with a block: a glyph, not a bar
  fill(img, 391, 62, 397, 65, 0); // "A-12": the hyphen of a word
  // "-71" in a book face: an en dash 0.72 of the figure's height long, 2 px from it
  words.push(figure('71', 600, 120), figure('\u201438', 600, 190), figure('\u201538', 600, 260));
  fill(img, 600, 120, 640, 141, 0);
  fill(img, 583, 132, 598, 134, 0);
  const signed = restoreMinusSigns(img, words).map((w) => w.text);
  assert.deepEqual(signed, ['-4.3', '1.7', '2.5', '8.0', '12', 'A', '-71', '-38', '-38']);
  assert.equal(restoreMinusSigns(img, words)[0]!.x0, 91);
});

test('a decimal point tesseract left off a figure under one is put back; leader dots and other ink are not one', () => {
  const img = blank(1000, 400);
  // figures 27 px tall, as 10-point type at 300 dpi
  const figure = (text: string, x0: number, y0: number) => ({ text, x0, y0, x1: x0 + 34, y1: y0 + 27, conf: 95, line: `${y0}` });
  const words = [figure('53', 200, 20), figure('1', 200, 80), figure('28', 200, 140), figure('12', 200, 200), figure('45', 200, 260)];
  words.forEach((w) => fill(img, w.x0, w.y0, w.x1, w.y1, 0));
  fill(img, 187, 42, 192, 47, 0); // ".53": a point on the baseline, 8 px left of the figure
  for (const x of [112, 137, 162, 187]) fill(img, x, 102, x + 5, 107, 0); // leader dots up to "1"
  fill(img, 187, 150, 192, 155, 0); // a dot at mid-height left of "28": no point
  fill(img, 160, 222, 165, 227, 0); // a dot on the baseline too far from "12"
  fill(img, 182, 280, 192, 287, 0); // a blot left of "45", larger than a point
  assert.deepEqual(
    restoreDecimalPoints(img, words).map((w) => [w.text, w.x0]),
    [['.53', 187], ['1', 200], ['28', 200], ['12', 200], ['45', 200]],
  );
});

// Scans at other resolutions than 300 dpi: a generated page of 10-point text rendered at 150 dpi
// (pdftoppm, which states the resolution in the PNG) reads back with exact table rows, and so
// does the same picture with no resolution stated (sized by its text, as tesseract judges it),
// and the page rendered at 600 dpi. Also which stated resolutions are believed, and enlarging
// and shrinking on pictures with exact expectations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { GrayImage } from '../../activities/documents/ocr/gray-image.js';
import { statedResolution } from '../../activities/documents/ocr/read-image.js';
import { enlargeGray, shrinkGray } from '../../activities/documents/ocr/resample.js';
import { imageTables } from '../fixtures/layout/image-tables.js';
import { makePdf } from '../fixtures/layout/make-pdf.js';

let dir = '';

const plain = [
  ['Account', 'Holder', 'Branch', 'Balance'],
  ['40-1187', 'Harriet Olsen', 'Leeds', '12,480.55'],
  ['40-2290', 'Marcus Webb', 'York', '3,907.10'],
  ['40-3315', 'Priya Natarajan', 'Hull', '88,215.00'],
  ['40-4402', 'Tomasz Zielinski', 'Bradford', '645.72'],
  ['40-5521', 'Grace Ellison', 'Wakefield', '19,330.48'],
];
const ruled = [
  ['Code', 'Region', 'Sales'],
  ['N1', 'North', '1200'],
  ['E2', 'East', '860'],
  ['W3', 'West', '2045'],
];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocr-dpi-'));
  await makePdf(join(dir, 'page.pdf'), [
    (p) => {
      p.text('Branch balances at the close of the quarter', 72, 60, { size: 12, bold: true });
      plain.forEach((row, r) => row.forEach((cell, c) => p.text(cell, [72, 160, 300, 420][c]!, 100 + r * 18, { size: 10, bold: r === 0 })));
      p.text('Sales by region, in units sold during the quarter', 72, 230, { size: 10 });
      p.grid([72, 160, 280, 380], [250, 272, 294, 316, 338], ruled, { size: 10, boldFirstRow: true });
    },
  ]);
  execFileSync('pdftoppm', ['-r', '150', '-png', '-singlefile', join(dir, 'page.pdf'), join(dir, 'page-150')]);
  execFileSync('pdftoppm', ['-r', '600', '-gray', '-png', '-singlefile', join(dir, 'page.pdf'), join(dir, 'page-600')]);
  // the same pixels, no resolution stated: encoded again from raw pixels
  const { data, info } = await sharp(join(dir, 'page-150.png')).raw().toBuffer({ resolveWithObject: true });
  await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).png().toFile(join(dir, 'page-150-unstated.png'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a 150 dpi scan stating its resolution reads with exact rows', async () => {
  assert.equal((await sharp(join(dir, 'page-150.png')).metadata()).density, 150);
  assert.deepEqual(await imageTables(join(dir, 'page-150.png')), [plain, ruled]);
});

test('the same scan stating no resolution: sized by its text, the same rows', async () => {
  assert.equal((await sharp(join(dir, 'page-150-unstated.png')).metadata()).density, undefined);
  assert.deepEqual(await imageTables(join(dir, 'page-150-unstated.png')), [plain, ruled]);
});

test('a 600 dpi scan (read shrunk to 300 dpi) reads with exact rows', async () => {
  assert.deepEqual(await imageTables(join(dir, 'page-600.png')), [plain, ruled]);
});

test('a stated resolution is believed when it makes a page of paper size', () => {
  const picture = (width: number, height: number, density?: number) => ({ width, height, data: new Uint8Array(0), density });
  assert.equal(statedResolution(picture(1275, 1650, 150)), 150); // letter at 150 dpi
  assert.equal(statedResolution(picture(1280, 800, 96)), 96); // a screenshot: 13 inches
  assert.equal(statedResolution(picture(4032, 3024, 72)), undefined); // a phone photo: 56 inches
  assert.equal(statedResolution(picture(2480, 3508)), undefined);
  assert.equal(statedResolution(picture(100, 100, 1)), undefined);
});

test('enlarging pixels: sizes, flat areas kept, edges kept in place', () => {
  const flat: GrayImage = { width: 3, height: 2, data: new Uint8Array(6).fill(90) };
  assert.deepEqual(enlargeGray(flat, 2), { width: 6, height: 4, data: new Uint8Array(24).fill(90) });
  assert.deepEqual([enlargeGray(flat, 1.5).width, enlargeGray(flat, 1.5).height], [5, 3]);
  // a dark left half and white right half, 4 x 1: the step stays in the middle, sharp at the ends
  const step: GrayImage = { width: 4, height: 1, data: Uint8Array.from([0, 0, 255, 255]) };
  const wide = enlargeGray(step, 2);
  assert.deepEqual([wide.width, wide.height], [8, 2]);
  assert.deepEqual([...wide.data.slice(0, 3)], [0, 0, 0]);
  assert.deepEqual([...wide.data.slice(5, 8)], [255, 255, 255]);
  assert.ok(wide.data[3]! < 128 && wide.data[4]! > 128, `${wide.data[3]} ${wide.data[4]}`);
});

test('shrinking pixels: each block its mean, a partial block at the edges', () => {
  // 5 x 3, shrunk 2 times: blocks of 2 x 2, then the last column and row on their own
  const img: GrayImage = { width: 5, height: 3, data: Uint8Array.from([0, 100, 200, 200, 50, 100, 0, 200, 200, 50, 10, 20, 30, 40, 90]) };
  assert.deepEqual(shrinkGray(img, 2), { width: 3, height: 2, data: Uint8Array.from([50, 200, 50, 15, 35, 90]) });
});

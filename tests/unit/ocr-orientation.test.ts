// Turned scans: a generated page rendered at 300 dpi (pdftoppm), turned 90, 180 and 270 degrees
// with sharp, reads back with the same table rows as the upright page (orientation detected,
// pixels and ruling lines turned upright before reading). Also the pixel and ruling turns on
// small pictures with exact expectations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { decodeImage, turnGray, type GrayImage } from '../../activities/documents/ocr/gray-image.js';
import { turnPoint, turnRulings } from '../../activities/documents/ocr/ocr-geometry.js';
import { mayBeTurned } from '../../activities/documents/ocr/ocr-page.js';
import { imageTables } from '../fixtures/layout/image-tables.js';
import { makePdf } from '../fixtures/layout/make-pdf.js';

let dir = '';

// A plain table (columns by whitespace) and a ruled one (columns by the rules found in the pixels).
const plain = [
  ['Product', 'Quantity', 'Price'],
  ['Apples', '12', '3.50'],
  ['Oranges', '40', '2.25'],
  ['Cherries', '150', '9.90'],
  ['Bananas', '36', '1.75'],
  ['Lemons', '18', '4.10'],
];
const ruled = [
  ['Code', 'Region', 'Sales'],
  ['N1', 'North', '1200'],
  ['S2', 'South', '860'],
  ['W3', 'West', '2045'],
];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocr-turn-'));
  await makePdf(join(dir, 'page.pdf'), [
    (p) => {
      p.text('Monthly fruit order and regional sales', 72, 60, { size: 18, bold: true });
      plain.forEach((row, r) => row.forEach((cell, c) => p.text(cell, [72, 240, 400][c]!, 110 + r * 24, { size: 14, bold: r === 0 })));
      p.text('Sales by region, in units sold during the month', 72, 290, { size: 14 });
      p.grid([72, 160, 320, 440], [320, 350, 380, 410, 440], ruled, { size: 14, boldFirstRow: true });
    },
  ]);
  execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', join(dir, 'page.pdf'), join(dir, 'page')]);
  for (const angle of [90, 180, 270]) await sharp(join(dir, 'page.png')).rotate(angle).toFile(join(dir, `page-${angle}.png`));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});


let upright: string[][][] = [];

test('upright page: both tables read exactly', async () => {
  upright = await imageTables(join(dir, 'page.png'));
  assert.deepEqual(upright, [plain, ruled]);
});

for (const angle of [90, 180, 270]) {
  test(`page turned ${angle} degrees: turned back, the same rows as upright`, async () => {
    const tables = await imageTables(join(dir, `page-${angle}.png`));
    assert.deepEqual(tables, [plain, ruled]);
  });
}

test('turning pixels: a quarter turn each way and a half turn', () => {
  // 3 x 2 picture: a b c / d e f
  const img: GrayImage = { width: 3, height: 2, data: Uint8Array.from([1, 2, 3, 4, 5, 6]) };
  assert.deepEqual(turnGray(img, 90), { width: 2, height: 3, data: Uint8Array.from([4, 1, 5, 2, 6, 3]) });
  assert.deepEqual(turnGray(img, 180), { width: 3, height: 2, data: Uint8Array.from([6, 5, 4, 3, 2, 1]) });
  assert.deepEqual(turnGray(img, 270), { width: 2, height: 3, data: Uint8Array.from([3, 6, 2, 5, 1, 4]) });
  assert.deepEqual(img.data, Uint8Array.from([1, 2, 3, 4, 5, 6]), 'input untouched');
  // the pixel at (x, y) lands where turnPoint sends its cell [x, x + 1) x [y, y + 1)
  for (const angle of [90, 180, 270] as const) {
    const turned = turnGray(img, angle);
    const map = turnPoint(angle, 3, 2);
    for (let y = 0; y < 2; y++) {
      for (let x = 0; x < 3; x++) {
        const [ax, ay] = map(x, y);
        const [bx, by] = map(x + 1, y + 1);
        assert.equal(turned.data[Math.min(ay, by) * turned.width + Math.min(ax, bx)], img.data[y * 3 + x], `${angle}: (${x}, ${y})`);
      }
    }
  }
});

test('turning rulings with the picture', () => {
  // 100 x 50 picture: a horizontal rule at y 10 from x 20 to 80, a vertical at x 30 from y 5 to 45
  const rulings = [
    { horizontal: true, at: 10, from: 20, to: 80 },
    { horizontal: false, at: 30, from: 5, to: 45 },
  ];
  assert.deepEqual(turnRulings(rulings, 90, 100, 50), [
    { horizontal: false, at: 40, from: 20, to: 80 },
    { horizontal: true, at: 30, from: 5, to: 45 },
  ]);
  assert.deepEqual(turnRulings(rulings, 180, 100, 50), [
    { horizontal: true, at: 40, from: 20, to: 80 },
    { horizontal: false, at: 70, from: 5, to: 45 },
  ]);
  assert.deepEqual(turnRulings(rulings, 270, 100, 50), [
    { horizontal: false, at: 10, from: 20, to: 80 },
    { horizontal: true, at: 70, from: 5, to: 45 },
  ]);
});

test('a reading that may be of a turned page: none, poor, or few confident words', () => {
  const word = (conf: number) => ({ text: 'word', x0: 0, y0: 0, x1: 40, y1: 10, conf, line: '1.1.1' });
  const page = (confs: number[]) => ({ width: 100, height: 100, words: confs.map(word) });
  assert.equal(mayBeTurned(page([])), true);
  assert.equal(mayBeTurned(page([40, 50, 55])), true);
  // mean 63 passes, but only a fifth of the words read confidently (a sideways page's fragments)
  assert.equal(mayBeTurned(page([90, 60, 55, 55, 55])), true);
  assert.equal(mayBeTurned(page([96, 95, 93, 40, 91])), false);
});

test('a photo turned by its EXIF orientation is decoded upright; one without it as it is', async () => {
  // 20 x 10 pixels, the left half dark; EXIF orientation 6: show it turned 90 degrees clockwise
  const pixels = Buffer.alloc(20 * 10, 255);
  for (let y = 0; y < 10; y++) pixels.fill(0, y * 20, y * 20 + 10);
  const picture = sharp(pixels, { raw: { width: 20, height: 10, channels: 1 } });
  const turned = await decodeImage(new Uint8Array(await picture.clone().png().withMetadata({ orientation: 6 }).toBuffer()));
  assert.deepEqual([turned?.width, turned?.height], [10, 20]);
  // turned clockwise, the dark left half is now the top half
  assert.ok(turned!.data[2 * 10 + 5]! < 128 && turned!.data[17 * 10 + 5]! > 128);
  const plainPicture = await decodeImage(new Uint8Array(await picture.clone().png().toBuffer()));
  assert.deepEqual([plainPicture?.width, plainPicture?.height, plainPicture!.data[5]! < 128, plainPicture!.data[15]! > 128], [20, 10, true, true]);
});

// Scans fed in askew: a generated page rendered at 300 dpi (pdftoppm) and turned a degree or two
// with sharp reads back with the same table rows as the upright page; the angle found from the
// ink, and the bicubic turn, on pictures with exact expectations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { decodeImage, turnGray, type GrayImage } from '../../activities/documents/ocr/gray-image.js';
import { estimateSkew, straighten } from '../../activities/documents/ocr/deskew.js';
import { rotateGray } from '../../activities/documents/ocr/resample.js';
import { imageTables } from '../fixtures/layout/image-tables.js';
import { makePdf } from '../fixtures/layout/make-pdf.js';

let dir = '';

const plain = [
  ['Invoice', 'Description', 'Hours', 'Amount'],
  ['1041', 'Site survey and report', '12', '1,440.00'],
  ['1042', 'Drainage design', '30', '3,600.00'],
  ['1043', 'Planning application', '8', '960.00'],
  ['1044', 'Structural review', '16', '1,920.00'],
  ['1045', 'Meetings with the council', '6', '720.00'],
];
const ruled = [
  ['Code', 'Region', 'Sales'],
  ['N1', 'North', '1200'],
  ['S2', 'South', '860'],
  ['W3', 'West', '2045'],
];

async function skewed(name: string, degrees: number, quarterTurn = 0): Promise<string> {
  const path = join(dir, `${name}.png`);
  // quarter turn first, then the small angle: a page fed in sideways and askew
  const turned = quarterTurn ? await sharp(join(dir, 'page.png')).rotate(quarterTurn).toBuffer() : join(dir, 'page.png');
  await sharp(turned).rotate(degrees, { background: '#ffffff' }).toFile(path);
  return path;
}

async function grayOf(path: string): Promise<GrayImage> {
  const gray = await decodeImage(new Uint8Array(await readFile(path)));
  assert.ok(gray);
  return gray;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocr-skew-'));
  // The table spans the page's width: askew by 1 degree its rows drift by more than a row.
  await makePdf(join(dir, 'page.pdf'), [
    (p) => {
      p.text('Statement of work done for the borough engineering office', 72, 60, { size: 16, bold: true });
      plain.forEach((row, r) => row.forEach((cell, c) => p.text(cell, [72, 150, 400, 480][c]!, 110 + r * 22, { size: 13, bold: r === 0 })));
      p.text('Sales by region, in units sold during the month', 72, 270, { size: 13 });
      p.grid([72, 200, 380, 540], [300, 328, 356, 384, 412], ruled, { size: 13, boldFirstRow: true });
    },
  ]);
  execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', join(dir, 'page.pdf'), join(dir, 'page')]);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});


test('upright page: both tables read exactly, and no skew is found', async () => {
  assert.deepEqual(await imageTables(join(dir, 'page.png')), [plain, ruled]);
  assert.equal(estimateSkew(await grayOf(join(dir, 'page.png'))), 0);
});

for (const degrees of [1.5, -2.5]) {
  test(`page askew by ${degrees} degrees: the angle is found and the rows are those of the upright page`, async () => {
    const path = await skewed(`skew-${degrees}`, degrees);
    const found = estimateSkew(await grayOf(path));
    assert.ok(Math.abs(found - degrees) <= 0.1, `found ${found}`);
    assert.deepEqual(await imageTables(path), [plain, ruled]);
  });
}

test('page fed in sideways and askew: straightened, then turned upright', async () => {
  const path = await skewed('sideways', 2, 90);
  const found = estimateSkew(await grayOf(path));
  assert.ok(Math.abs(found - 2) <= 0.1, `found ${found}`);
  assert.deepEqual(await imageTables(path), [plain, ruled]);
});

test('no angle is claimed for a blank page or for noise', () => {
  const blank: GrayImage = { width: 800, height: 1000, data: new Uint8Array(800 * 1000).fill(255) };
  assert.equal(estimateSkew(blank), 0);
  // a fixed pseudo-random speckle: ink everywhere, in no rows
  let seed = 7;
  const noise = Uint8Array.from({ length: 800 * 1000 }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 100 < 10 ? 0 : 255));
  assert.equal(estimateSkew({ width: 800, height: 1000, data: noise }), 0);
});

test('straighten leaves an upright picture as it is', async () => {
  const gray = await grayOf(join(dir, 'page.png'));
  const result = straighten(gray);
  assert.equal(result.skew, 0);
  assert.equal(result.image, gray);
});

test('turning pixels by any angle: exact on quarter turns, the canvas grown, the corners paper', () => {
  const img: GrayImage = { width: 3, height: 2, data: Uint8Array.from([10, 20, 30, 40, 50, 60]) };
  assert.deepEqual(rotateGray(img, 0), img);
  assert.deepEqual(rotateGray(img, 90), turnGray(img, 90));
  assert.deepEqual(rotateGray(img, -90), turnGray(img, 270));
  // a black 100 x 50 rectangle turned 30 degrees: 100·cos 30 + 50·sin 30 = 111.6 wide
  const block: GrayImage = { width: 100, height: 50, data: new Uint8Array(100 * 50) };
  const turned = rotateGray(block, 30);
  assert.deepEqual([turned.width, turned.height], [112, 94]);
  assert.equal(turned.data[0], 255, 'top-left corner is paper');
  assert.equal(turned.data[47 * 112 + 56], 0, 'the centre is ink');
  // turned clockwise, the block's right end goes down: at x = 100 it spans y 43-69
  assert.deepEqual([10, 56, 85].map((y) => turned.data[y * 112 + 100]), [255, 0, 255]);
});

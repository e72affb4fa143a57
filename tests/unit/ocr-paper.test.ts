// A phone's photo of a page lying on a desk (the camera tilted, the page turned a little, its
// paper light grey, no resolution stated): the page is cut out of the desk and squared up, and it
// reads with the rows of the rendered page. Pictures with no desk around the page, or with a dark
// band printed across its top, are left as they are. A picture shaped like a sheet is sized as one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { GrayImage } from '../../activities/documents/ocr/gray-image.js';
import { cutOutPaper, invertProjective, project, sheetResolution, squareToQuad, type Point } from '../../activities/documents/ocr/paper.js';
import { photographed } from '../../scripts/eval/photo.js';
import { imageTables } from '../fixtures/layout/image-tables.js';
import { depotStock, scannedStoresPage, storesReceived } from '../fixtures/layout/stores-page.js';

let dir = '';
let page: GrayImage;
let photo: GrayImage;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocr-paper-'));
  page = await scannedStoresPage(dir);
  photo = photographed(page.data, page.width, page.height, 0.04);
  // a camera's JPEG, stating 72 dpi as cameras do
  await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 1 } }).withMetadata({ density: 72 }).jpeg({ quality: 90 }).toFile(join(dir, 'photo.jpg'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('the photographed page is cut out of the desk and squared up', () => {
  const cut = cutOutPaper(photo);
  assert.notEqual(cut, photo);
  // the page's own size, give or take the camera's foreshortening and the edge cut away
  assert.ok(Math.abs(cut.width / page.width - 0.96) < 0.03, `width ${cut.width} of ${page.width}`);
  assert.ok(Math.abs(cut.height / page.height - 1) < 0.03, `height ${cut.height} of ${page.height}`);
  // no desk left along its edges: every edge row and column is paper (the photo's paper is 235)
  const mean = (at: (k: number) => number, count: number): number => {
    let sum = 0;
    for (let k = 0; k < count; k++) sum += cut.data[at(k)]!;
    return sum / count;
  };
  const { width, height } = cut;
  for (const [side, value] of [
    ['top', mean((x) => x, width)],
    ['bottom', mean((x) => (height - 1) * width + x, width)],
    ['left', mean((y) => y * width, height)],
    ['right', mean((y) => y * width + width - 1, height)],
  ] as const) {
    assert.ok(value > 220, `${side} edge ${value.toFixed(0)}`);
  }
});

test('the photographed page reads with the rows of the rendered page', async () => {
  assert.deepEqual(await imageTables(join(dir, 'page.png')), [storesReceived, depotStock]);
  assert.deepEqual(await imageTables(join(dir, 'photo.jpg')), [storesReceived, depotStock]);
});

test('a page with no desk around it, or a dark band printed across its top, is left as it is', () => {
  assert.ok(cutOutPaper(page) === page, 'a rendered page was cut');
  const band = Uint8Array.from(page.data, (v, i) => (i < page.width * 300 ? 40 : v));
  const banded = { ...page, data: band };
  assert.ok(cutOutPaper(banded) === banded, 'a page with a dark band was cut');
});

test('a picture shaped like a Letter or A4 sheet is sized as one', () => {
  assert.ok(Math.abs(sheetResolution({ width: 2550, height: 3300, data: new Uint8Array(0) })! - 300) < 5);
  assert.ok(Math.abs(sheetResolution({ width: 3508, height: 2480, data: new Uint8Array(0) })! - 300) < 5);
  assert.equal(sheetResolution({ width: 1200, height: 1200, data: new Uint8Array(0) }), undefined);
  assert.equal(sheetResolution({ width: 600, height: 2400, data: new Uint8Array(0) }), undefined);
});

test('the square-to-quad map and its inverse take corners to corners', () => {
  const quad: Point[] = [
    [110, 95],
    [905, 120],
    [960, 1210],
    [80, 1180],
  ];
  const map = squareToQuad(quad);
  const back = invertProjective(map);
  const unit: Point[] = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ];
  unit.forEach(([u, v], k) => {
    const [x, y] = project(map, u, v);
    assert.ok(Math.hypot(x - quad[k]![0], y - quad[k]![1]) < 1e-6, `corner ${k} at ${x},${y}`);
    const [u2, v2] = project(back, x, y);
    assert.ok(Math.hypot(u2 - u, v2 - v) < 1e-9);
  });
});

// Uneven light: a generated page rendered at 300 dpi (pdftoppm) whose paper darkens to 55% across
// the page, as in a photo's shadow, reads back with the same table rows as the evenly lit page;
// the paper is brought back to white and the ink kept dark; an evenly lit page is left as it is.
// Grainy paper (greyed, every pixel scattered, saved as a JPEG) reads back alike: its paper is
// made white, while ink and shading stay.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { GrayImage } from '../../activities/documents/ocr/gray-image.js';
import { evenLight, whitenPaper } from '../../activities/documents/ocr/lighting.js';
import { grainy, seededScatter } from '../../scripts/eval/noise.js';
import { imageTables } from '../fixtures/layout/image-tables.js';
import { depotStock, scannedStoresPage, storesReceived } from '../fixtures/layout/stores-page.js';

let dir = '';
let page: GrayImage;
let shaded: GrayImage;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocr-light-'));
  page = await scannedStoresPage(dir);
  // the light falls off from left to right: paper 255 at the left edge, 140 at the right
  const data = Uint8Array.from(page.data, (v, i) => Math.round(v * (1 - 0.45 * ((i % page.width) / page.width))));
  shaded = { width: page.width, height: page.height, data };
  await sharp(data, { raw: { width: page.width, height: page.height, channels: 1 } }).withMetadata({ density: 300 }).png().toFile(join(dir, 'shaded.png'));
  await sharp(grainy(page.data, 20), { raw: { width: page.width, height: page.height, channels: 1 } }).withMetadata({ density: 300 }).jpeg({ quality: 75 }).toFile(join(dir, 'grainy.jpg'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('an evenly lit page is left as it is', () => {
  assert.equal(evenLight(page), page);
});

test('paper in shadow is brought back to white; ink stays dark', () => {
  const lit = evenLight(shaded);
  assert.notEqual(lit, shaded);
  let paperGrey = 0;
  let inkLost = 0;
  for (let i = 0; i < page.data.length; i++) {
    if (page.data[i] === 255 && lit.data[i]! < 230) paperGrey++;
    if (page.data[i]! < 64 && lit.data[i]! > 128) inkLost++;
  }
  assert.ok(paperGrey < 0.001 * page.data.length, `${paperGrey} paper pixels still grey`);
  assert.equal(inkLost, 0);
});

test('the page in shadow reads with the rows of the evenly lit page', async () => {
  assert.deepEqual(await imageTables(join(dir, 'page.png')), [storesReceived, depotStock]);
  assert.deepEqual(await imageTables(join(dir, 'shaded.png')), [storesReceived, depotStock]);
});

test('clean paper is left as it is', () => {
  assert.ok(whitenPaper(page) === page, 'a new picture for a clean page');
});

test('grainy paper is made white; ink and a shaded band stay as they were', () => {
  // paper 235, a band shaded 200 (rows 100-139), ink squares of 20 on both; all scattered (about 9 greys)
  const width = 400;
  const height = 240;
  const clean = new Uint8Array(width * height).map((_, i) => {
    const [x, y] = [i % width, Math.floor(i / width)];
    if (x % 50 < 6 && y % 40 < 20) return 20;
    return y >= 100 && y < 140 ? 200 : 235;
  });
  const picture = { width, height, data: clean };
  const uniform = seededScatter(0.5, 7);
  const scattered = { width, height, data: Uint8Array.from(picture.data, (v) => Math.max(0, v + Math.round((uniform() + uniform() + uniform() + uniform()) * 15))) };
  const white = whitenPaper(scattered);
  const count = (test: (v: number, i: number) => boolean): number => white.data.reduce((n, v, i) => n + (test(v, i) ? 1 : 0), 0);
  const paper = count((_, i) => clean[i] === 235);
  // (but in the squares the band's edges cross: 8 rows of 200)
  assert.ok(count((v, i) => clean[i] === 235 && v === 255) > 0.95 * paper, 'paper made white');
  assert.equal(count((v, i) => clean[i] === 20 && v !== scattered.data[i]), 0, 'ink kept');
  // (the squares the band's edges cross may go white: it is judged inside them)
  const inside = (i: number): boolean => clean[i] === 200 && Math.floor(i / width) >= 104 && Math.floor(i / width) < 136;
  const band = count((_, i) => inside(i));
  assert.equal(count((v, i) => inside(i) && v === scattered.data[i]), band, 'shading kept');
});

test('grainy paper between the strokes of letters is made white too', () => {
  // paper 235; strokes 4 pixels wide every 12, their edges a pixel of 170 on each side (as a
  // letter's are drawn), in lines 24 pixels high: most of a square a stroke crosses is paper
  const width = 240;
  const height = 120;
  const clean = new Uint8Array(width * height).map((_, i) => {
    const [x, y] = [i % width, Math.floor(i / width)];
    if (y % 40 >= 24) return 235;
    const at = (x + 3) % 12;
    return at >= 2 && at < 6 ? 20 : at === 1 || at === 6 ? 170 : 235;
  });
  const uniform = seededScatter(0.5, 3);
  const scattered = { width, height, data: Uint8Array.from(clean, (v) => Math.max(0, v + Math.round((uniform() + uniform()) * 6))) };
  const white = whitenPaper(scattered);
  let paper = 0;
  let whitened = 0;
  for (let i = 0; i < clean.length; i++) {
    if (clean[i] !== 235 || Math.floor(i / width) % 40 >= 24) continue;
    paper++;
    if (white.data[i] === 255) whitened++;
  }
  assert.ok(whitened > 0.95 * paper, `${whitened} of ${paper} pixels of paper between strokes made white`);
});

test('the page on grainy paper reads with the rows of the clean page', async () => {
  assert.deepEqual(await imageTables(join(dir, 'grainy.jpg')), [storesReceived, depotStock]);
});

// Rows of dots in page pixels (dot leaders, "..."), drawn here pixel by pixel, and the dots put
// back as text after tesseract read the picture without them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GrayImage } from '../../activities/documents/ocr/gray-image.js';
import { dotRuns, eraseLeaders, isErased, withDots } from '../../activities/documents/ocr/leaders.js';
import type { OcrWord } from '../../activities/documents/ocr/tesseract.js';

function blank(width: number, height: number): GrayImage {
  return { width, height, data: new Uint8Array(width * height).fill(255) };
}

function fill(img: GrayImage, x0: number, y0: number, x1: number, y1: number): void {
  for (let y = y0; y < y1; y++) img.data.fill(0, y * img.width + x0, y * img.width + x1);
}

/** `n` dots 5 px square, `pitch` apart, standing on the baseline `y`. */
function dots(img: GrayImage, x: number, y: number, n: number, pitch = 16): void {
  for (let i = 0; i < n; i++) fill(img, x + i * pitch, y - 5, x + i * pitch + 5, y);
}

test('rows of dots on a baseline: leaders and ellipses, not the dots over letters or between them', () => {
  const img = blank(1200, 400);
  dots(img, 100, 100, 12); // a leader
  dots(img, 600, 100, 3); // "..." alone
  dots(img, 800, 100, 2, 10); // ".."
  // dots of i's over their stems (a roman "iii" set large), apart from them: ink under each dot
  for (let i = 0; i < 3; i++) {
    fill(img, 100 + i * 16, 200, 105 + i * 16, 205);
    fill(img, 100 + i * 16, 214, 105 + i * 16, 244);
  }
  // full stops with letters between them ("U.S.A."): ink between the dots
  for (let i = 0; i < 4; i++) {
    fill(img, 300 + i * 30, 210, 320 + i * 30, 240);
    fill(img, 322 + i * 30, 235, 327 + i * 30, 240);
  }
  // a glyph ending right before two dots ("etc..")
  fill(img, 980, 70, 1000, 100);
  dots(img, 1004, 100, 2, 10);
  const runs = dotRuns(img, 300).filter((r) => r.count >= 2);
  assert.deepEqual(runs.map((r) => [r.x0, r.y0, r.x1, r.y1, r.count, r.alone, isErased(r)]), [
    [100, 95, 281, 100, 12, false, true],
    [600, 95, 637, 100, 3, true, true],
    [800, 95, 815, 100, 2, true, true],
    [1004, 95, 1019, 100, 2, false, false],
  ]);
  const erased = eraseLeaders(img, runs.filter(isErased));
  assert.equal(erased.data[97 * 1200 + 102], 255, 'leader erased');
  assert.equal(erased.data[97 * 1200 + 602], 255, 'ellipsis erased, to be put back');
  assert.equal(erased.data[202 * 1200 + 102], 0, 'the dot of an i kept');
  assert.equal(img.data[97 * 1200 + 102], 0, 'original untouched');
});

test('two or three dots alone put back as a word of their own; none beside a word, no leader', () => {
  const word = (text: string, x0: number, x1: number): OcrWord => ({ text, x0, x1, y0: 70, y1: 100, conf: 95, line: '1.1.1' });
  const run = (x0: number, x1: number, count: number, alone = true) => ({ x0, x1, y0: 95, y1: 100, count, alone });
  const words = [word('Other', 20, 90), word('income', 100, 180), word('12', 400, 430), word('continued', 700, 860)];
  const back = withDots([run(200, 380, 12), run(600, 637, 3), run(866, 881, 2), run(1000, 1010, 2), run(1100, 1130, 3, false)], words);
  assert.deepEqual(back.map((w) => [w.text, w.x0, w.x1]), [
    ['Other', 20, 90],
    ['income', 100, 180],
    ['12', 400, 430],
    ['continued', 700, 860],
    ['...', 600, 637],
    ['..', 1000, 1010],
  ]);
});

test("a typewriter's leader, a dot every other character at ten to the inch, is a leader too", () => {
  const img = blank(1200, 200);
  // at 300 dpi: dots 6 px across, 60 px apart (0.2 in), from a label to a figure
  for (let i = 0; i < 8; i++) fill(img, 300 + i * 60, 94, 306 + i * 60, 100);
  const runs = dotRuns(img, 300).filter((r) => r.count >= 2);
  assert.deepEqual(runs.map((r) => [r.x0, r.x1, r.count, isErased(r)]), [[300, 726, 8, true]]);
});

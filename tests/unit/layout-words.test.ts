// Word-level repairs of the layout engine: text clipped at a cell border split from the next
// cell's text, fragments of right-to-left text joined with their punctuation, figures that
// tesseract cut at a thousands separator in scripts written without spaces, its Japanese
// model's readings of the negative sign △, and the decimal part of a typewritten figure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markRuledStarts, splitAtRules, type PageGeometry, type PageWord } from '../../activities/documents/layout/geometry.js';
import { groupLines, lineText } from '../../activities/documents/layout/lines.js';
import { joinUnspaced, poorlyRead } from '../../activities/documents/ocr/ocr-page.js';
import { restoreMisreads } from '../../activities/documents/ocr/misreads.js';

function word(text: string, x0: number, x1: number, rtl = false): PageWord {
  return { text, x0, x1, y0: 100, y1: 110, size: 10, font: 'F1', rtl };
}

test('a word running across a drawn rule is split where its two tokens meet; clipped letters are dropped', () => {
  const page: PageGeometry = {
    page: 1,
    width: 600,
    height: 800,
    words: [word('Matthew', 60, 95), word('Elizab2165', 97, 147), word('Princeton', 149, 190), word('LABORATORIES', 200, 260)],
    rulings: [
      { horizontal: false, at: 123, from: 90, to: 120 },
      { horizontal: false, at: 230, from: 90, to: 120 },
    ],
  };
  const split = markRuledStarts(splitAtRules(page));
  // "Elizab2165": the rule cuts it after 5.2 of 10 characters; the letters/figures boundary is
  // after 6; the "b" past the rule is hidden by the border. "LABORATORIES" has no boundary near
  // the rule: a title drawn over a column rule stays whole.
  assert.deepEqual(
    split.words.map((w) => [w.text, w.x0, w.x1, w.ruledLeft ?? false]),
    [
      ['Matthew', 60, 95, false],
      ['Eliza', 97, 123, false],
      ['2165', 123, 147, true],
      ['Princeton', 149, 190, false],
      ['LABORATORIES', 200, 260, false],
    ],
  );
  // the word after the rule is not joined back to the clipped one
  assert.deepEqual(groupLines(split.words)[0]!.words.map((w) => w.text), ['Matthew', 'Eliza', '2165', 'Princeton', 'LABORATORIES']);
});

test('right-to-left fragments join with the punctuation between them, in reading order', () => {
  // Visual order left to right: "קיימא" "-" "בני"; read right to left: "בני-קיימא". The glyph "("
  // at the left end of a Hebrew word closes it: ")" (Unicode bidi mirroring).
  const lines = groupLines([word('קיימא', 10, 30, true), word('-', 30.5, 33), word('בני', 33.5, 50, true), word('(', 60, 62), word('ללא', 62.5, 80, true)]);
  assert.equal(lines.length, 1);
  assert.deepEqual(lines[0]!.words.map((w) => w.text), ['בני-קיימא', 'ללא)']);
  assert.equal(lineText(lines[0]!), 'ללא) בני-קיימא');
});

test('tesseract’s words stay apart where their boxes touch; pdf.js fragments of one word join', () => {
  const ocr = (text: string, x0: number, x1: number): PageWord => ({ ...word(text, x0, x1), font: '' });
  assert.deepEqual(groupLines([ocr('at', 50, 60), ocr('cost,', 59, 80), ocr('株', 90, 100), ocr('主', 100.5, 110)])[0]!.words.map((w) => w.text), ['at', 'cost,', '株主']);
  assert.deepEqual(groupLines([ocr('สวัส', 50, 70), ocr('ดี', 70.5, 80)])[0]!.words.map((w) => w.text), ['สวัสดี']);
  assert.deepEqual(groupLines([word('Tot', 50, 62), word('al', 62.5, 70)])[0]!.words.map((w) => w.text), ['Total']);
});

test('figures cut at a thousands separator are joined again; words a space apart are not', () => {
  const w = (text: string, x0: number, x1: number, y0 = 100) => ({ text, x0, x1, y0, y1: y0 + 20, conf: 90, line: `${x0}` });
  const page = { width: 1000, height: 1000, words: [w('5,', 761, 772), w('664', 790, 832), w('749', 900, 941), w('株主', 100, 140, 300), w('資本', 145, 185, 300)] };
  assert.deepEqual(joinUnspaced(page).words.map((x) => x.text), ['株主資本', '5,664', '749']);
});

test('jpn: the triangle of a negative amount read as 人ム, 人へ, 人, ムへ or へ (as one word or several) is △ again; other words and languages are kept', () => {
  const w = (text: string, x0: number, x1: number, line: string) => ({ text, x0, x1, y0: 600, y1: 622, conf: 80, line });
  const page = {
    width: 2000,
    height: 1000,
    words: [
      w('人', 1404, 1413, 'a'), w('ム', 1415, 1428, 'a'), w('747', 1433, 1474, 'a'), // three words
      w('人へ669', 700, 790, 'b'), // one word
      w('人', 1190, 1199, 'c'), w('109', 1203, 1244, 'c'), // 人 alone
      w('人', 100, 120, 'd'), w('口', 124, 144, 'd'), // 人口 (population): no figure follows
      w('人', 300, 320, 'e'), w('12', 400, 440, 'e'), // a figure too far away
      w('ーー', 1600, 1640, 'f'), // prolonged-sound marks alone: a dash
      w('人ムへ75', 100, 190, 'g'), w('ムへ0', 300, 340, 'g'), w('へ', 500, 510, 'g'), w('525', 514, 560, 'g'), // blurred readings
      w('ハ1', 700, 730, 'g'), w('へ', 800, 810, 'g'), w('行く', 814, 860, 'g'), // a list item ハ, a particle before a word
      w('ム', 1130, 1142, 'h'), w('へ', 1142, 1152, 'h'), w('525', 1158, 1198, 'h'), // the lower half as two words
    ],
  };
  assert.deepEqual(restoreMisreads(page, 'jpn').words.map((x) => x.text), ['△747', '△669', '△109', '人', '口', '人', '12', '—', '△75', '△0', '△525', 'ハ1', 'へ', '行く', '△525']);
  assert.deepEqual(restoreMisreads(page, 'jpn').words[0], { text: '△747', x0: 1404, x1: 1474, y0: 600, y1: 622, conf: 80, line: 'a' });
  assert.equal(restoreMisreads(page, 'eng'), page);
});

test('poorly read words, and the words of letters on their lines, are read again; figures and other lines are not', () => {
  const w = (text: string, conf: number, line: string) => ({ text, x0: 0, x1: 10, y0: 0, y1: 10, conf, line });
  // a Hebrew label read as Latin letters, one of them with confidence; its figures on a line of their own
  const label = [w('RN"', 0, 'a'), w('ONIN', 69, 'a'), w('vyn?', 27, 'a')];
  const figures = [w('7.0', 95, 'b'), w('1.9', 40, 'b'), w('-2.0', 93, 'b')];
  const english = [w('Total', 92, 'c'), w('exports', 90, 'c')];
  const page = { width: 100, height: 100, words: [...label, ...figures, ...english] };
  assert.deepEqual(poorlyRead(page).map((x) => x.text), ['RN"', 'ONIN', 'vyn?', '1.9']);
});

test('the decimal part of a figure set a typewriter point apart joins its whole part; a figure a column away does not', () => {
  const line = (words: PageWord[]): string[] => groupLines(words)[0]!.words.map((w) => w.text);
  // "78" ".84" 3.5 pt apart at 10 pt (the point in the middle of its character's width)
  assert.deepEqual(line([word('149', 210, 224), word('78', 254, 262), word('.84', 265.5, 276)]), ['149', '78.84']);
  assert.deepEqual(line([word('Run', 14, 27), word('04', 94, 101), word(':44', 104.5, 115), word('PM', 120, 128)]), ['Run', '04:44', 'PM']);
  // one column's "1" and the next column's ".53", 11 pt apart; a word that is no figure's part
  assert.deepEqual(line([word('1', 232, 237), word('.53', 248, 259), word('7', 262, 266), word('.5x', 269, 280)]), ['1', '.53', '7', '.5x']);
});

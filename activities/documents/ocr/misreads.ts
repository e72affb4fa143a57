// Glyphs a language model of tesseract reliably reads as others, put back.
//
// Japanese accounts write a negative amount as △747. The jpn model reads the triangle as 人
// followed by one or two kana that look like its lower half (人ム, 人へ, 人ハ, 人ムへ), as 人 alone,
// or, on a blurred scan, as the lower half alone (ム, へ, ムへ), in the same word as the figure, as
// a word of its own just before it, or as two (ム, へ; a photographed page). Neither 人 (person) nor
// a lone ム or へ stands before a figure in a number, so the reading is taken back to △. (A lone ハ
// is left: イ, ロ, ハ number the items of a list.) A word of nothing but prolonged-sound marks (ー)
// is a dash (—, as dropped-ink.ts reads a lone dash): the mark only ever follows a kana.
import type { OcrPage, OcrWord } from './tesseract.js';

const TRIANGLE = /^(?:人[ムへヘハ]{0,2}|[ムへヘ]{1,2})/u;
const TRIANGLE_WORD = /^(?:人[ムへヘハ]{0,2}|[ムへヘ]{1,2})$/u;
const FIGURE = /^[\d,.]+$/u;
const DASH_MARKS = /^ー{1,3}$/u;
// A triangle read as a word of its own is this close to its figure (share of the line height).
const TRIANGLE_GAP = 0.6;

function joined(a: OcrWord, b: OcrWord, text: string): OcrWord {
  return { ...b, text, x0: a.x0, y0: Math.min(a.y0, b.y0), y1: Math.max(a.y1, b.y1), conf: Math.min(a.conf, b.conf) };
}

function restoredWord(w: OcrWord): OcrWord {
  const triangle = TRIANGLE.exec(w.text);
  if (triangle && FIGURE.test(w.text.slice(triangle[0].length))) return { ...w, text: `△${w.text.slice(triangle[0].length)}` };
  if (DASH_MARKS.test(w.text)) return { ...w, text: '—' };
  return w;
}

/** `page` with the jpn model's known misreadings undone; other languages' words pass unchanged. */
export function restoreMisreads(page: OcrPage, lang: string): OcrPage {
  if (!lang.split('+').includes('jpn')) return page;
  const words: OcrWord[] = [];
  for (const w of page.words) {
    const prev = words.at(-1);
    const height = Math.max(w.y1 - w.y0, prev ? prev.y1 - prev.y0 : 0);
    const next = prev && prev.line === w.line && w.x0 - prev.x1 < TRIANGLE_GAP * height;
    // the triangle's parts as two words (人, ム or ム, へ), then the figure as a third
    if (next && TRIANGLE_WORD.test(prev.text + w.text)) {
      words[words.length - 1] = joined(prev, w, prev.text + w.text);
      continue;
    }
    if (next && TRIANGLE_WORD.test(prev.text) && FIGURE.test(w.text)) {
      words[words.length - 1] = joined(prev, w, `△${w.text}`);
      continue;
    }
    words.push(restoredWord(w));
  }
  return { ...page, words };
}

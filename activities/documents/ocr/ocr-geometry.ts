// Tesseract words (pixels of the image as given) -> the upright page in points. Tesseract reads
// sideways text in place; the direction in which words follow each other along its lines
// tells how the page is turned.
import type { PageGeometry, PageWord, Ruling } from '../layout/geometry.js';
import { isRtlText } from '../layout/geometry.js';
import type { OcrPage } from './tesseract.js';

export function readingTurns(page: OcrPage): number {
  const byLine = new Map<string, { x: number; y: number }[]>();
  for (const w of page.words) {
    let l = byLine.get(w.line);
    if (!l) byLine.set(w.line, (l = []));
    l.push({ x: (w.x0 + w.x1) / 2, y: (w.y0 + w.y1) / 2 });
  }
  const weight = [0, 0, 0, 0];
  for (const centres of byLine.values()) {
    if (centres.length < 2) continue;
    const first = centres[0]!;
    const last = centres[centres.length - 1]!;
    const dx = last.x - first.x;
    const dy = last.y - first.y;
    const turn = Math.abs(dx) >= Math.abs(dy) ? (dx >= 0 ? 0 : 2) : dy > 0 ? 1 : 3;
    weight[turn]! += centres.length;
  }
  let best = 0;
  for (let t = 1; t < 4; t++) if (weight[t]! > weight[best]!) best = t;
  return best;
}

/**
 * A point of a picture W x H pixels, in the picture turned `clockwise` degrees (continuous
 * coordinates: pixel x covers [x, x + 1)).
 */
export function turnPoint(clockwise: 0 | 90 | 180 | 270, W: number, H: number): (x: number, y: number) => [number, number] {
  switch (clockwise) {
    case 90:
      return (x, y) => [H - y, x];
    case 180:
      return (x, y) => [W - x, H - y];
    case 270:
      return (x, y) => [y, W - x];
    default:
      return (x, y) => [x, y];
  }
}

/** Rulings of a picture W x H, in pixels, as they lie in the picture turned `clockwise` degrees. */
export function turnRulings(rulings: readonly Ruling[], clockwise: 0 | 90 | 180 | 270, W: number, H: number, scale = 1): Ruling[] {
  const map = turnPoint(clockwise, W, H);
  return rulings.map((r) => {
    const [ax, ay] = r.horizontal ? map(r.from, r.at) : map(r.at, r.from);
    const [bx, by] = r.horizontal ? map(r.to, r.at) : map(r.at, r.to);
    const horizontal = Math.abs(by - ay) < Math.abs(bx - ax);
    return horizontal
      ? { horizontal, at: ((ay + by) / 2) * scale, from: Math.min(ax, bx) * scale, to: Math.max(ax, bx) * scale }
      : { horizontal, at: ((ax + bx) / 2) * scale, from: Math.min(ay, by) * scale, to: Math.max(ay, by) * scale };
  });
}

// A word's box is about as tall as its capitals and ascenders, three quarters of its font size:
// the layout judges gaps in font sizes, as on digital pages (a total's line under a table's last
// rule was "too far" from it by its box height alone).
const BOX_TO_FONT_SIZE = 1.3;

/**
 * `scale` converts pixels to points (72 / dpi); `rulings` are in pixels of the same picture;
 * `knownTurns` from orientation detection. With `upright`, the picture is taken as upright
 * (it was turned upright before reading) whatever the order of words along lines says.
 */
export function ocrGeometry(page: OcrPage, pageNumber: number, scale: number, rulings: readonly Ruling[] = [], knownTurns?: number, upright = false): PageGeometry {
  // The words' own lines tell how the page is turned; when they cannot (one word per line), the
  // orientation detection's answer does.
  const found = upright ? 0 : readingTurns(page);
  const turns = upright ? 0 : found !== 0 || knownTurns === undefined ? found : knownTurns;
  const W = page.width;
  const H = page.height;
  // quarter turns the page was given, undone by turning it clockwise the rest of the way round
  const clockwise = ([0, 270, 180, 90] as const)[turns] ?? 0;
  const map = turnPoint(clockwise, W, H);
  const words: PageWord[] = page.words.map((w) => {
    const [ax, ay] = map(w.x0, w.y0);
    const [bx, by] = map(w.x1, w.y1);
    const x0 = Math.min(ax, bx) * scale;
    const x1 = Math.max(ax, bx) * scale;
    const y0 = Math.min(ay, by) * scale;
    const y1 = Math.max(ay, by) * scale;
    return { text: w.text, x0, y0, x1, y1, size: (y1 - y0) * BOX_TO_FONT_SIZE, font: '', rtl: isRtlText(w.text) };
  });
  const sideways = turns % 2 === 1;
  const rules = turnRulings(rulings, clockwise, W, H, scale);
  return {
    page: pageNumber,
    width: (sideways ? H : W) * scale,
    height: (sideways ? W : H) * scale,
    words,
    rulings: rules,
  };
}

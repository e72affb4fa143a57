// Dot leaders (". . . . ." from a label to its figures) erased from a picture before tesseract
// reads it. Tesseract reads a leader as words of junk ("Se ee ee", "So"), set on the label's line
// or glued to the label, which the layout then takes for cells of their own; the words of a table
// of accounts came out as five columns instead of three.
//
// A leader is a row of four or more dots on one baseline with nothing else between them: a dot
// is a piece of ink no taller and no wider than DOT_IN (several dots set tight may touch, then
// the piece is flat, and counts one dot per run of ink across it). Three dots or fewer stay
// ("..." stands for "not available"), as do dots with ink between them (decimal points,
// abbreviations).
import { CELL, DARK, darkPerCell, type GrayImage } from './gray-image.js';
import { inkParts, type InkBlob } from './dropped-ink.js';

// Sizes in inches: a full stop of 6 to 14 pt text is about 0.01-0.03 in across.
const DOT_IN = 0.035;
// Gap between two dots of one leader, at most (a leader set ". . ." in 14 pt: about 0.1 in).
const MAX_GAP_IN = 0.16;
// Height above the dots that must hold no ink between two of them (a glyph standing on the
// baseline between two full stops: "U.S.A.").
const CLEAR_ABOVE_IN = 0.08;
const MIN_DOTS = 4;
// The widest piece taken for touching dots, before its runs of ink are counted.
const MAX_CHAIN_IN = 3;

/** The picture with its dot leaders painted white: in place when `inPlace`, else a copy when any. */
export function eraseLeaders(image: GrayImage, dpi: number, inPlace = false): GrayImage {
  const leaders = findLeaders(image, dpi);
  if (leaders.length === 0) return image;
  const data = inPlace ? image.data : new Uint8Array(image.data);
  for (const box of leaders) {
    for (let y = box.y0; y < box.y1; y++) data.fill(255, y * image.width + box.x0, y * image.width + box.x1);
  }
  return { width: image.width, height: image.height, data };
}

interface Dot extends InkBlob {
  /** dots in the piece: 1, or the runs of ink across a piece of touching dots */
  count: number;
}

/** Boxes (pixels) of the leaders of the picture. */
export function findLeaders(image: GrayImage, dpi: number): InkBlob[] {
  const dotSize = Math.max(2, DOT_IN * dpi);
  const ink = darkPerCell(image);
  const flat = inkParts(ink, image, dotSize + CELL, MAX_CHAIN_IN * dpi);
  const dots = flat.flatMap((p) => {
    const dot = dotOf(image, p, dotSize);
    return dot ? [dot] : [];
  });
  dots.sort((a, b) => a.x0 - b.x0);
  const gw = Math.ceil(image.width / CELL);
  const clearAbove = CLEAR_ABOVE_IN * dpi;
  const maxGap = MAX_GAP_IN * dpi;
  const runs: Dot[][] = [];
  for (const d of dots) {
    const run = runs.find((r) => {
      const last = r[r.length - 1]!;
      return Math.abs(last.y1 - d.y1) <= CELL && d.x0 - last.x1 <= maxGap && d.x0 >= last.x1 && clearBetween(ink, gw, last, d, clearAbove);
    });
    if (run) run.push(d);
    else runs.push([d]);
  }
  return runs
    .filter((r) => r.reduce((n, d) => n + d.count, 0) >= MIN_DOTS)
    .map((r) => ({ x0: r[0]!.x0, x1: r[r.length - 1]!.x1, y0: Math.min(...r.map((d) => d.y0)), y1: Math.max(...r.map((d) => d.y1)) }));
}

/**
 * The piece as a dot (or a chain of touching dots) in its exact pixel box, when it is one: no
 * taller than a dot, and no run of ink along any of its rows longer than a dot (a hyphen, a dash
 * or an underline is one long run).
 */
function dotOf(image: GrayImage, part: InkBlob, dotSize: number): Dot | undefined {
  let top = -1;
  let bottom = -1;
  let left = part.x1;
  let right = part.x0;
  let count = 0;
  for (let y = part.y0; y < part.y1; y++) {
    let runs = 0;
    let run = 0;
    for (let x = part.x0; x < part.x1; x++) {
      if (image.data[y * image.width + x]! < DARK) {
        if (run === 0) runs++;
        if (++run > dotSize) return undefined;
        if (x < left) left = x;
        if (x >= right) right = x + 1;
      } else run = 0;
    }
    if (runs > 0) {
      if (top < 0) top = y;
      bottom = y + 1;
      count = Math.max(count, runs);
    }
  }
  if (top < 0 || bottom - top > dotSize) return undefined;
  return { x0: left, x1: right, y0: top, y1: bottom, count };
}

/** Whether no ink lies between dots `a` and `b` (a left of b), from their bottom up to `above` over it. */
function clearBetween(ink: Uint16Array, gw: number, a: InkBlob, b: InkBlob, above: number): boolean {
  const gx0 = Math.floor(a.x1 / CELL) + 1;
  const gx1 = Math.floor((b.x0 - 1) / CELL) - 1;
  const gy0 = Math.max(0, Math.floor((Math.min(a.y0, b.y0) - above) / CELL));
  const gy1 = Math.floor((Math.max(a.y1, b.y1) - 1) / CELL);
  for (let gy = gy0; gy <= gy1; gy++) for (let gx = gx0; gx <= gx1; gx++) if (ink[gy * gw + gx]) return false;
  return true;
}

// Dot leaders (". . . . ." from a label to its figures) erased from a picture before tesseract
// reads it. Tesseract reads a leader as words of junk ("Se ee ee", "So"), set on the label's line
// or glued to the label, which the layout then takes for cells of their own; the words of a table
// of accounts came out as five columns instead of three.
//
// A leader is a row of four or more dots on one baseline with nothing else between them: a dot
// is a piece of ink no taller and no wider than DOT_IN (several dots set tight may touch, then
// the piece is flat, and counts one dot per run of ink across it). Three dots or fewer stay
// ("..." stands for "not available"), as do dots with ink between them (decimal points,
// abbreviations). Two or three dots alone in a cell are erased too, then put back after reading
// (withDots): tesseract drops them, or reads them with the ink nearby as junk.
import { CELL, DARK, darkPerCell, type GrayImage } from './gray-image.js';
import { inkParts, type InkBlob } from './dropped-ink.js';
import type { OcrWord } from './tesseract.js';
import { LEADER_DOTS } from '../layout/cells.js';

// Sizes in inches: a full stop of 6 to 14 pt text is about 0.01-0.03 in across.
const DOT_IN = 0.035;
// Gap between two dots of one leader, at most (a leader set ". . ." in 14 pt: about 0.1 in; a
// typewriter's, a dot every other character at ten to the inch: about 0.19 in).
const MAX_GAP_IN = 0.22;
// Height above the dots that must hold no ink between two of them (a glyph standing on the
// baseline between two full stops: "U.S.A.").
const CLEAR_ABOVE_IN = 0.08;
// Depth under a dot that holds no ink: a full stop stands on the baseline; the dot of an i or
// the two of an ü stand over their letter.
const CLEAR_UNDER_IN = 0.05;
// Pixels erased around a run of dots.
const ERASE_MARGIN = 2;
// Two or three dots with no ink this near on either side stand alone in their cell.
const ASIDE_IN = 0.06;
// The widest piece taken for touching dots, before its runs of ink are counted.
const MAX_CHAIN_IN = 3;

/** The picture with `leaders` (pixel boxes) painted white: in place when `inPlace`, else a copy when any. */
export function eraseLeaders(image: GrayImage, leaders: readonly InkBlob[], inPlace = false): GrayImage {
  if (leaders.length === 0) return image;
  const data = inPlace ? image.data : new Uint8Array(image.data);
  // With a margin: the grey edges of the dots would be left as specks.
  const { width, height } = image;
  for (const box of leaders) {
    const [x0, x1] = [Math.max(0, box.x0 - ERASE_MARGIN), Math.min(width, box.x1 + ERASE_MARGIN)];
    for (let y = Math.max(0, box.y0 - ERASE_MARGIN); y < Math.min(height, box.y1 + ERASE_MARGIN); y++) data.fill(255, y * width + x0, y * width + x1);
  }
  return { width, height, data };
}

interface Dot extends InkBlob {
  /** dots in the piece: 1, or the runs of ink across a piece of touching dots */
  count: number;
}

/** A row of dots on one baseline with nothing between them: `count` dots in the box (pixels). */
export interface DotRun extends Dot {
  /** no ink close by on either side: a cell of its own */
  alone: boolean;
}

/** Whether a run of dots is a leader (four or more); two or three are an ellipsis. */
function isLeader(run: DotRun): boolean {
  return run.count >= LEADER_DOTS;
}

/** The rows of dots of the picture (a lone dot too, as a run of one). */
export function dotRuns(image: GrayImage, dpi: number): DotRun[] {
  const dotSize = Math.max(2, DOT_IN * dpi);
  const ink = darkPerCell(image);
  const flat = inkParts(ink, image, dotSize + CELL, MAX_CHAIN_IN * dpi);
  const gw = Math.ceil(image.width / CELL);
  const clearUnder = CLEAR_UNDER_IN * dpi;
  const dots = flat.flatMap((p) => {
    const dot = dotOf(image, p, dotSize);
    return dot && clearBelow(ink, gw, dot, clearUnder) ? [dot] : [];
  });
  dots.sort((a, b) => a.x0 - b.x0);
  const clearAbove = CLEAR_ABOVE_IN * dpi;
  const maxGap = MAX_GAP_IN * dpi;
  const runs: Dot[][] = [];
  // Runs whose last dot is within reach of the dots still to come (sorted by their left edge).
  let open: Dot[][] = [];
  for (const d of dots) {
    open = open.filter((r) => d.x0 - r[r.length - 1]!.x1 <= maxGap);
    const run = open.find((r) => {
      const last = r[r.length - 1]!;
      return Math.abs(last.y1 - d.y1) <= CELL && d.x0 >= last.x1 && clearBetween(ink, gw, last, d, clearAbove);
    });
    if (run) run.push(d);
    else {
      runs.push([d]);
      open.push(runs[runs.length - 1]!);
    }
  }
  const aside = ASIDE_IN * dpi;
  return runs.map((r) => {
    const box = { x0: r[0]!.x0, x1: r[r.length - 1]!.x1, y0: Math.min(...r.map((d) => d.y0)), y1: Math.max(...r.map((d) => d.y1)) };
    const count = r.reduce((n, d) => n + d.count, 0);
    // Only two or three dots need to stand alone (isErased).
    return { ...box, count, alone: count >= 2 && count < LEADER_DOTS && clearAside(ink, gw, box, aside, clearAbove) };
  });
}

/** Whether no ink lies within `aside` pixels left and right of the run, from its bottom up to `above` over it. */
function clearAside(ink: Uint16Array, gw: number, run: InkBlob, aside: number, above: number): boolean {
  const left = { x0: 0, y0: run.y0, x1: Math.max(0, run.x0 - aside), y1: run.y1 };
  const right = { x0: run.x1 + aside, y0: run.y0, x1: 0, y1: run.y1 };
  return clearBetween(ink, gw, left, run, above) && clearBetween(ink, gw, run, right, above);
}

// No word of its line nearer to a lone run than this share of the words' height.
const ELLIPSIS_CLEARANCE = 1.0;

/**
 * Whether a run of dots is erased before tesseract reads the picture: a leader, or two or three
 * dots alone (kept beside other ink: the two strokes of a dakuten, "etc...").
 */
export function isErased(run: DotRun): boolean {
  return isLeader(run) || (run.count >= 2 && run.alone);
}

/**
 * `words` with the lone runs of two or three dots erased before reading put back as words
 * ("..", "...": not available, in statistical tables); tesseract dropped them, or read them with
 * the ink nearby as junk ("..." over the "(88)" of the line below came out "(28)"). A run on no
 * line of words, or close to one of its words, is left out.
 */
export function withDots(runs: readonly DotRun[], words: readonly OcrWord[]): OcrWord[] {
  const out = [...words];
  for (const run of runs) {
    if (!isErased(run) || isLeader(run)) continue;
    const cy = (run.y0 + run.y1) / 2;
    const line = out.filter((w) => cy > w.y0 + 0.5 * (w.y1 - w.y0) && cy < w.y1 + 0.15 * (w.y1 - w.y0));
    if (line.length === 0) continue;
    const clearance = ELLIPSIS_CLEARANCE * (line[0]!.y1 - line[0]!.y0);
    if (line.some((w) => w.x1 > run.x0 - clearance && w.x0 < run.x1 + clearance)) continue;
    out.push({ text: '.'.repeat(run.count), x0: run.x0, x1: run.x1, y0: line[0]!.y0, y1: line[0]!.y1, conf: 90, line: `dots.${out.length}` });
  }
  return out;
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

/** Whether no ink lies under the dot, `depth` pixels down from its bottom. */
function clearBelow(ink: Uint16Array, gw: number, dot: InkBlob, depth: number): boolean {
  return !inkInCells(ink, gw, Math.floor(dot.x0 / CELL), Math.floor((dot.x1 - 1) / CELL), Math.floor((dot.y1 - 1) / CELL) + 1, Math.floor((dot.y1 + depth) / CELL));
}

/** Whether no ink lies between dots `a` and `b` (a left of b), from their bottom up to `above` over it. */
function clearBetween(ink: Uint16Array, gw: number, a: InkBlob, b: InkBlob, above: number): boolean {
  const gy0 = Math.floor((Math.min(a.y0, b.y0) - above) / CELL);
  return !inkInCells(ink, gw, Math.floor(a.x1 / CELL) + 1, Math.floor((b.x0 - 1) / CELL) - 1, gy0, Math.floor((Math.max(a.y1, b.y1) - 1) / CELL));
}

/** Whether a square of the ink grid in columns gx0..gx1 and rows gy0..gy1 (kept inside the grid) holds ink. */
function inkInCells(ink: Uint16Array, gw: number, gx0: number, gx1: number, gy0: number, gy1: number): boolean {
  const [x0, x1] = [Math.max(0, gx0), Math.min(gw - 1, gx1)];
  for (let gy = Math.max(0, gy0); gy <= Math.min(ink.length / gw - 1, gy1); gy++) {
    for (let gx = x0; gx <= x1; gx++) if (ink[gy * gw + gx]) return true;
  }
  return false;
}

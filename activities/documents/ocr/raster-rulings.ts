// Ruling lines of a scanned or rendered page, found in its pixels: long thin runs of dark pixels,
// horizontal and vertical. They feed the same ruled-table logic as the drawing operators of a
// digital PDF, and are erased from the picture before OCR (tesseract reads rules as "|", "_"
// or glues them to the words they touch).
import type { Ruling } from '../layout/geometry.js';
import type { GrayImage } from './gray-image.js';

/** A rule in pixels: centre line `at`, extent [from, to), `thickness` pixels across. */
export interface PixelRule {
  horizontal: boolean;
  at: number;
  from: number;
  to: number;
  /** first and last pixel row (horizontal) or column (vertical) across the rule */
  first: number;
  last: number;
  /** an edge of a filled area rather than a drawn line: nothing to erase */
  edge?: boolean;
  /** on the top edge of a filled area: the area (pixels, end exclusive), whose shading is removed before OCR */
  fill?: { x0: number; y0: number; x1: number; y1: number };
}

// Darker than this is ink (rules drawn in mid grey included; light shading is not).
const INK = 170; // at most 192: inkRuns skips paper by the top two bits
// Shortest rule, in inches: a narrow cell's border. Glyph strokes are shorter at text sizes.
const MIN_LENGTH_IN = 0.2;
// Thickest rule, in inches (about 2.2 pt); thicker runs are filled areas or bold glyphs.
const MAX_THICKNESS_IN = 0.03;
// A rule is at least this many times longer than thick (a large glyph's stem is not).
const MIN_ELONGATION = 12;
// Pixel gaps up to this long inside a run are bridged (anti-aliasing, scanning dropouts).
const BRIDGE = 2;

interface Open {
  x0: number;
  x1: number;
  first: number;
  last: number;
}

/** The four edges of a filled block (not its inside: it is no line to erase). */
function fillEdges(o: Open, pageArea: number, out: PixelRule[]): void {
  if ((o.x1 - o.x0) * (o.last - o.first + 1) > 0.5 * pageArea) return;
  out.push(
    { horizontal: true, at: o.first, from: o.x0, to: o.x1, first: o.first, last: o.first, edge: true, fill: { x0: o.x0, y0: o.first, x1: o.x1, y1: o.last + 1 } },
    { horizontal: true, at: o.last + 1, from: o.x0, to: o.x1, first: o.last, last: o.last, edge: true },
    { horizontal: false, at: o.x0, from: o.first, to: o.last + 1, first: o.x0, last: o.x0, edge: true },
    { horizontal: false, at: o.x1, from: o.first, to: o.last + 1, first: o.x1 - 1, last: o.x1 - 1, edge: true },
  );
}

/**
 * Runs of ink (flat [start, end, ...] per line) grouped across consecutive lines into rules no
 * thicker than `maxThickness`; thicker blocks found along rows are filled areas (their edges).
 */
function groupRuns(runs: readonly (number[] | undefined)[], area: number, maxThickness: number, horizontal: boolean): PixelRule[] {
  const out: PixelRule[] = [];
  // Pieces of one rule cover about the same span line after line; a block that merely touches a
  // rule (a dark band against a border) is another shape.
  joinRuns(runs.length, (r) => runs[r], 0.5, true, (o) => {
    const thickness = o.last - o.first + 1;
    const length = o.x1 - o.x0;
    if (thickness <= maxThickness && length >= MIN_ELONGATION * thickness) {
      out.push({ horizontal, at: (o.first + o.last + 1) / 2, from: o.x0, to: o.x1, first: o.first, last: o.last });
    } else if (horizontal && thickness > maxThickness) fillEdges(o, area, out);
  });
  return out;
}

/**
 * Follows runs (flat [start, end, ...] per line) across consecutive lines: a run continues the
 * open shape of the line before that it overlaps by at least `share` of the longer of the two
 * (widening the shape to it when `widen`); a shape no run continues is handed to `close`.
 */
function joinRuns(lines: number, runsOf: (line: number) => readonly number[] | undefined, share: number, widen: boolean, close: (o: Open) => void): void {
  let open: Open[] = [];
  for (let r = 0; r < lines; r++) {
    const line = runsOf(r);
    if (!line && open.length === 0) continue;
    const next: Open[] = [];
    for (let i = 0; line && i < line.length; i += 2) {
      const start = line[i]!;
      const end = line[i + 1]!;
      const joined = open.findIndex((o) => Math.min(o.x1, end) - Math.max(o.x0, start) >= share * Math.max(o.x1 - o.x0, end - start));
      if (joined >= 0) {
        const o = open[joined]!;
        open.splice(joined, 1);
        if (widen) {
          if (start < o.x0) o.x0 = start;
          if (end > o.x1) o.x1 = end;
        }
        o.last = r;
        next.push(o);
      } else next.push({ x0: start, x1: end, first: r, last: r });
    }
    for (const o of open) close(o);
    open = next;
  }
  for (const o of open) close(o);
}

/**
 * One pass over the pixels: runs of ink at least `minLength` long along each row and along each
 * column (gaps up to BRIDGE pixels bridged). Columns are followed with a little state per column,
 * touched only at ink pixels, so the picture is read once, row by row.
 */
function inkRuns(data: Uint8Array, width: number, height: number, minLength: number): { rows: (number[] | undefined)[]; columns: (number[] | undefined)[] } {
  const rows: (number[] | undefined)[] = new Array(height);
  const columns: (number[] | undefined)[] = new Array(width);
  const vStart = new Int32Array(width).fill(-1);
  const vLast = new Int32Array(width).fill(-1_000_000);
  // Paper is skipped four pixels at a time: a word whose bytes all have their top two bits set
  // holds no pixel below 192, so none below INK.
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const whole = width - (width % 4);
  for (let y = 0; y < height; y++) {
    const base = y * width;
    let runStart = -1;
    let runEnd = -1;
    let line: number[] | undefined;
    for (let x = 0; x < width; x++) {
      if ((x & 3) === 0 && x < whole && (~view.getUint32(base + x, true) & 0xc0c0c0c0) === 0) {
        x += 3;
        continue;
      }
      if (data[base + x]! >= INK) continue;
      const last = vLast[x]!;
      if (y - last - 1 > BRIDGE) {
        const from = vStart[x]!;
        if (from >= 0 && last + 1 - from >= minLength) (columns[x] ??= []).push(from, last + 1);
        vStart[x] = y;
      }
      vLast[x] = y;
      if (runStart >= 0 && x - runEnd <= BRIDGE) runEnd = x + 1;
      else {
        if (runStart >= 0 && runEnd - runStart >= minLength) (line ??= []).push(runStart, runEnd);
        runStart = x;
        runEnd = x + 1;
      }
    }
    if (runStart >= 0 && runEnd - runStart >= minLength) (line ??= []).push(runStart, runEnd);
    rows[y] = line;
  }
  for (let x = 0; x < width; x++) {
    const from = vStart[x]!;
    const last = vLast[x]!;
    if (from >= 0 && last + 1 - from >= minLength) (columns[x] ??= []).push(from, last + 1);
  }
  return { rows, columns };
}

// Lighter than this is paper; between INK and PAPER is shading (or a rule drawn in light grey).
const PAPER = 235;
// Text on a shaded area differs from its background by at least this much grey.
const CONTRAST = 48;
// Shading at least this tall (inches) is a filled band whose edges separate rows like rules.
const MIN_FILL_IN = 0.03;
// Share of a shaded run that must be grey rather than ink (text on the band is ink).
const MIN_GREY_SHARE = 0.6;

/**
 * Shaded bands (cells or rows filled in grey, how many reports mark totals) -> their edges as
 * rules, the way a digital PDF's filled rectangles are read; thin grey runs are light rules.
 */
function scanShading(data: Uint8Array, width: number, height: number, minLength: number, maxThickness: number, minFill: number): PixelRule[] {
  const out: PixelRule[] = [];
  const pageArea = width * height;
  joinRuns(height, (r) => shadedRuns(data, r * width, width, minLength), 0.8, false, (o) => {
    const thickness = o.last - o.first + 1;
    const length = o.x1 - o.x0;
    if (thickness >= minFill) fillEdges(o, pageArea, out);
    else if (thickness <= maxThickness && length >= MIN_ELONGATION * thickness) {
      out.push({ horizontal: true, at: (o.first + o.last + 1) / 2, from: o.x0, to: o.x1, first: o.first, last: o.last });
    }
  });
  return out;
}

/** Runs of shading along one row of pixels (from `base`), at least `minLength` long and mostly grey. */
function shadedRuns(data: Uint8Array, base: number, width: number, minLength: number): number[] | undefined {
  let runs: number[] | undefined;
  let c = 0;
  while (c < width) {
    if (data[base + c]! >= PAPER) {
      c++;
      continue;
    }
    const start = c;
    let grey = 0;
    while (c < width && data[base + c]! < PAPER) {
      if (data[base + c]! >= INK) grey++;
      c++;
    }
    if (c - start >= minLength && grey >= MIN_GREY_SHARE * (c - start)) (runs ??= []).push(start, c);
  }
  return runs;
}

// A short run along the tops of bold letters (the x-height line, bridged from glyph to glyph:
// "Item") can pass for a rule; the letters leave ink on both sides of it, a rule has paper on
// at least one side (its ends, where other rules cross it, are not looked at). Runs shorter than
// SIDE_CHECK_IN inches are checked.
const SIDE_CHECK_IN = 1;
const MAX_SIDE_INK = 0.15;

/** Share of ink along the line of pixels two pixels beyond a rule's edge (side -1: above or left). */
function inkBeside(image: GrayImage, r: PixelRule, side: -1 | 1): number {
  const { width, height, data } = image;
  const line = side < 0 ? r.first - 2 : r.last + 2;
  if (line < 0 || line >= (r.horizontal ? height : width)) return 0;
  const from = Math.ceil(r.from) + 4;
  const to = Math.floor(r.to) - 4;
  if (to <= from) return 0;
  let ink = 0;
  for (let i = from; i < to; i++) if (data[r.horizontal ? line * width + i : i * width + line]! < INK) ink++;
  return ink / (to - from);
}

/** Rules of the picture in pixels; `dpi` sets the sizes that tell rules from glyphs. */
export function findPixelRules(image: GrayImage, dpi: number): PixelRule[] {
  const { width, height, data } = image;
  const minLength = Math.max(8, Math.round(MIN_LENGTH_IN * dpi));
  const maxThickness = Math.max(2, Math.round(MAX_THICKNESS_IN * dpi));
  const runs = inkRuns(data, width, height, minLength);
  const maxChecked = SIDE_CHECK_IN * dpi;
  const ruleLike = (r: PixelRule): boolean => r.edge === true || r.to - r.from >= maxChecked || Math.min(inkBeside(image, r, -1), inkBeside(image, r, 1)) < MAX_SIDE_INK;
  const horizontal = groupRuns(runs.rows, width * height, maxThickness, true).filter(ruleLike);
  const vertical = groupRuns(runs.columns, width * height, maxThickness, false).filter(ruleLike);
  const shading = scanShading(data, width, height, minLength, maxThickness, Math.max(3, Math.round(MIN_FILL_IN * dpi)));
  return [...horizontal, ...vertical, ...shading];
}

/**
 * The picture with the rules painted white (one pixel of margin around each) and shaded areas
 * cleared; in place when `inPlace` (the caller no longer needs the original pixels), else a copy.
 */
export function eraseRules(image: GrayImage, rules: readonly PixelRule[], inPlace = false): GrayImage {
  const data = inPlace ? image.data : new Uint8Array(image.data);
  const { width, height } = image;
  // Shading first, judged on the picture as drawn (before rules across it turn white).
  for (const r of rules) if (r.fill) clearShading(data, width, r.fill);
  for (const r of rules) {
    if (r.edge) continue;
    const a0 = Math.max(0, r.first - 1);
    const a1 = Math.min(r.horizontal ? height - 1 : width - 1, r.last + 1);
    const b0 = Math.max(0, Math.floor(r.from) - 1);
    const b1 = Math.min(r.horizontal ? width : height, Math.ceil(r.to) + 1);
    for (let a = a0; a <= a1; a++) {
      if (r.horizontal) data.fill(255, a * width + b0, a * width + b1);
      else for (let b = b0; b < b1; b++) data[b * width + a] = 255;
    }
  }
  return { width, height, data };
}

/**
 * Paints a shaded area's background white and its text black: tesseract binarises the whole page
 * with one threshold, which grey bands can push into losing their text, and it is not asked to
 * look for light text on dark (see tesseract.ts), which a band with light text would hold.
 */
function clearShading(data: Uint8Array, width: number, box: { x0: number; y0: number; x1: number; y1: number }): void {
  const histogram = new Uint32Array(256);
  for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) histogram[data[y * width + x]!]!++;
  let background = 0;
  for (let v = 1; v < 256; v++) if (histogram[v]! > histogram[background]!) background = v;
  if (background >= PAPER) return;
  let darker = 0;
  let lighter = 0;
  for (let v = 0; v < 256; v++) {
    if (v < background - CONTRAST) darker += histogram[v]!;
    else if (v > background + CONTRAST) lighter += histogram[v]!;
  }
  // Light text on a dark band, rather than dark text (or nothing) on a grey one.
  const lightText = lighter > 2 * darker;
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      const i = y * width + x;
      const v = data[i]!;
      if (lightText) data[i] = v > background + CONTRAST ? 0 : 255;
      else if (v > background - CONTRAST) data[i] = 255;
    }
  }
}

/** Rules in the picture's pixel coordinates as layout rulings (still in pixels). */
export function rulingsOfPixelRules(rules: readonly PixelRule[]): Ruling[] {
  return rules.map((r) => ({ horizontal: r.horizontal, at: r.at, from: r.from, to: r.to }));
}

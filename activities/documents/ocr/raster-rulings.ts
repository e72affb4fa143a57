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
const INK = 170;
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
 * Runs of ink at least `minLength` long along rows of a bitmap (`ink[row * stride + col]`),
 * grouped across consecutive rows into rules no thicker than `maxThickness`.
 */
function scanRules(ink: Uint8Array, rows: number, cols: number, minLength: number, maxThickness: number, horizontal: boolean): PixelRule[] {
  const out: PixelRule[] = [];
  let open: Open[] = [];
  const close = (o: Open): void => {
    const thickness = o.last - o.first + 1;
    const length = o.x1 - o.x0;
    if (thickness <= maxThickness && length >= MIN_ELONGATION * thickness) {
      out.push({ horizontal, at: (o.first + o.last + 1) / 2, from: o.x0, to: o.x1, first: o.first, last: o.last });
    } else if (horizontal && thickness > maxThickness) fillEdges(o, rows * cols, out);
  };
  for (let r = 0; r < rows; r++) {
    const base = r * cols;
    const next: Open[] = [];
    let c = 0;
    while (c < cols) {
      if (!ink[base + c]) {
        c++;
        continue;
      }
      const start = c;
      let end = c + 1;
      let k = end;
      // extend, bridging short gaps
      while (k < cols) {
        if (ink[base + k]) {
          end = ++k;
        } else if (k - end < BRIDGE) k++;
        else break;
      }
      c = end + 1;
      if (end - start < minLength) continue;
      // continue an open rule of the row above that this run overlaps mostly
      let joined: Open | undefined;
      for (const o of open) {
        const overlap = Math.min(o.x1, end) - Math.max(o.x0, start);
        // Pieces of one rule cover about the same span row after row; a block that merely
        // touches a rule (a dark band against a border) is another shape.
        if (overlap >= 0.5 * Math.max(o.x1 - o.x0, end - start)) {
          joined = o;
          break;
        }
      }
      if (joined) {
        open.splice(open.indexOf(joined), 1);
        joined.x0 = Math.min(joined.x0, start);
        joined.x1 = Math.max(joined.x1, end);
        joined.last = r;
        next.push(joined);
      } else next.push({ x0: start, x1: end, first: r, last: r });
    }
    for (const o of open) close(o);
    open = next;
  }
  for (const o of open) close(o);
  return out;
}

// Lighter than this is paper; between INK and PAPER is shading (or a rule drawn in light grey).
const PAPER = 235;
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
  let open: Open[] = [];
  const pageArea = width * height;
  const close = (o: Open): void => {
    const thickness = o.last - o.first + 1;
    const length = o.x1 - o.x0;
    if (thickness >= minFill) fillEdges(o, pageArea, out);
    else if (thickness <= maxThickness && length >= MIN_ELONGATION * thickness) {
      out.push({ horizontal: true, at: (o.first + o.last + 1) / 2, from: o.x0, to: o.x1, first: o.first, last: o.last });
    }
  };
  for (let r = 0; r < height; r++) {
    const base = r * width;
    const next: Open[] = [];
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
      const end = c;
      if (end - start < minLength || grey < MIN_GREY_SHARE * (end - start)) continue;
      let joined: Open | undefined;
      for (const o of open) {
        const overlap = Math.min(o.x1, end) - Math.max(o.x0, start);
        if (overlap >= 0.8 * Math.max(o.x1 - o.x0, end - start)) {
          joined = o;
          break;
        }
      }
      if (joined) {
        open.splice(open.indexOf(joined), 1);
        joined.last = r;
        next.push(joined);
      } else next.push({ x0: start, x1: end, first: r, last: r });
    }
    for (const o of open) close(o);
    open = next;
  }
  for (const o of open) close(o);
  return out;
}

/** Rules of the picture in pixels; `dpi` sets the sizes that tell rules from glyphs. */
export function findPixelRules(image: GrayImage, dpi: number): PixelRule[] {
  const { width, height, data } = image;
  const minLength = Math.max(8, Math.round(MIN_LENGTH_IN * dpi));
  const maxThickness = Math.max(2, Math.round(MAX_THICKNESS_IN * dpi));
  const ink = new Uint8Array(width * height);
  for (let i = 0; i < ink.length; i++) ink[i] = data[i]! < INK ? 1 : 0;
  const horizontal = scanRules(ink, height, width, minLength, maxThickness, true);
  // The same scan over the transposed bitmap finds the vertical rules.
  const transposed = new Uint8Array(width * height);
  const BLOCK = 64;
  for (let y0 = 0; y0 < height; y0 += BLOCK) {
    const y1 = Math.min(height, y0 + BLOCK);
    for (let x0 = 0; x0 < width; x0 += BLOCK) {
      const x1 = Math.min(width, x0 + BLOCK);
      for (let y = y0; y < y1; y++) {
        const row = y * width;
        for (let x = x0; x < x1; x++) transposed[x * height + y] = ink[row + x]!;
      }
    }
  }
  const vertical = scanRules(transposed, width, height, minLength, maxThickness, false);
  const shading = scanShading(data, width, height, minLength, maxThickness, Math.max(3, Math.round(MIN_FILL_IN * dpi)));
  return [...horizontal, ...vertical, ...shading];
}

/** A copy of the picture with the rules painted white (one pixel of margin around each). */
export function eraseRules(image: GrayImage, rules: readonly PixelRule[]): GrayImage {
  const data = new Uint8Array(image.data);
  const { width, height } = image;
  for (const r of rules) {
    if (r.fill) clearShading(data, width, r.fill);
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
 * Paints a shaded area's background white, keeping what is clearly darker (its text): tesseract
 * binarises the whole page with one threshold, which grey bands can push into losing their text.
 */
function clearShading(data: Uint8Array, width: number, box: { x0: number; y0: number; x1: number; y1: number }): void {
  const histogram = new Uint32Array(256);
  for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) histogram[data[y * width + x]!]!++;
  let background = 0;
  for (let v = 1; v < 256; v++) if (histogram[v]! > histogram[background]!) background = v;
  if (background >= PAPER || background < 64) return;
  const keep = background - 48;
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      const i = y * width + x;
      if (data[i]! > keep) data[i] = 255;
    }
  }
}

/** Rules in the picture's pixel coordinates as layout rulings (still in pixels). */
export function rulingsOfPixelRules(rules: readonly PixelRule[]): Ruling[] {
  return rules.map((r) => ({ horizontal: r.horizontal, at: r.at, from: r.from, to: r.to }));
}

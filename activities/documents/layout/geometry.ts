// Shared geometry of a page as the layout engine sees it: points, y growing downwards,
// in the page's upright reading orientation (rotation already applied by the readers).
import type { WordBox } from '../types.js';

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A word with what the layout engine needs beyond its box. */
export interface PageWord extends WordBox {
  /** Font size in points (the word's height when the reader knows no better). */
  size: number;
  /** Reader's font identity (pdfjs font id, or '' for OCR): a header set in another font stands out. */
  font: string;
  /** Right-to-left script (Hebrew, Arabic): cells read from right to left. */
  rtl: boolean;
  /** A drawn vertical rule runs just left of the word: it starts a cell and joins no fragment before it. */
  ruledLeft?: boolean;
}

/** A ruling line drawn on the page: horizontal at `at` from `from` to `to`, or vertical likewise. */
export interface Ruling {
  horizontal: boolean;
  at: number;
  from: number;
  to: number;
}

export interface PageGeometry {
  page: number;
  width: number;
  height: number;
  words: PageWord[];
  rulings: Ruling[];
}

export function boxOf(items: readonly Box[]): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of items) {
    if (b.x0 < x0) x0 = b.x0;
    if (b.y0 < y0) y0 = b.y0;
    if (b.x1 > x1) x1 = b.x1;
    if (b.y1 > y1) y1 = b.y1;
  }
  return { x0, y0, x1, y1 };
}

export function centerX(b: Box): number {
  return (b.x0 + b.x1) / 2;
}

export function centerY(b: Box): number {
  return (b.y0 + b.y1) / 2;
}

export function contains(outer: Box, x: number, y: number, slack = 0): boolean {
  return x >= outer.x0 - slack && x <= outer.x1 + slack && y >= outer.y0 - slack && y <= outer.y1 + slack;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const RTL_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

export function isRtlText(text: string): boolean {
  return RTL_CHAR.test(text);
}

// A rule this close left of a word's start (points) is the border of the word's cell.
const RULED_LEFT_GAP = 4;

/**
 * The page with each word that starts right after a drawn vertical rule marked: text clipped at a
 * cell border often runs up against the next cell's first word, and must not be joined to it.
 */
export function markRuledStarts(page: PageGeometry): PageGeometry {
  const verticals = page.rulings.filter((r) => !r.horizontal);
  if (verticals.length === 0) return page;
  verticals.sort((a, b) => a.at - b.at);
  const words = page.words.map((w) => {
    const cy = (w.y0 + w.y1) / 2;
    // first rule at or right of x0 - gap (binary search), then the few up to x0
    let lo = 0;
    let hi = verticals.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (verticals[mid]!.at < w.x0 - RULED_LEFT_GAP) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < verticals.length && verticals[i]!.at <= w.x0 + 0.5; i++) {
      const r = verticals[i]!;
      if (cy >= r.from - 1 && cy <= r.to + 1) return { ...w, ruledLeft: true };
    }
    return w;
  });
  return { ...page, words };
}

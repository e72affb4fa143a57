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

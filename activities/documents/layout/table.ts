// A table found on one page (or continued over several), as rows of words per column.
import type { Box, PageWord, Span } from './geometry.js';

export interface CellRow {
  /** Words per column. */
  cells: PageWord[][];
  top: number;
  bottom: number;
}

export interface LayoutTable {
  page: number;
  lastPage: number;
  box: Box;
  /** Column boundaries on the first page, left to right (columns + 1 values). */
  columnXs: number[];
  /** Where each column's text below the header lies on the first page (null: none there). */
  columnSpans: (Span | null)[];
  /** Cell texts; the first row is the (merged) header when hasHeader. */
  rows: string[][];
  hasHeader: boolean;
  ruled: boolean;
}

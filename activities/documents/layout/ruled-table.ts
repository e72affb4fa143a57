// A ruled region and the words inside it -> a table. Rules give the grid where they exist;
// whitespace gives the rest (columns of a table ruled only between rows, rows of a box that
// holds many lines of figures).
import { type Box, type PageWord, type Span, centerX, centerY } from './geometry.js';
import { chunkWords, chunksOf, groupLines, type Line } from './lines.js';
import { columnAt, columnOfWord, holdsFigure, isValueLike } from './cells.js';
import { hiddenColumns, whitespaceColumns } from './columns.js';
import { positions, ruledAt, type RuledAt, type RuledRegion } from './grid.js';
import { figureSpans } from './line-cells.js';
import { linesToRows } from './rows.js';
import type { CellRow } from './table.js';

export interface GridRows {
  box: Box;
  xs: number[];
  rows: CellRow[];
  /** Rows known to be header from the drawing (text above the first rule of a row-ruled table). */
  headerHint?: number;
}

const INSIDE = 1.5;

export function wordsInside(words: readonly PageWord[], box: Box): PageWord[] {
  return words.filter((w) => {
    const cx = centerX(w);
    const cy = centerY(w);
    return cx >= box.x0 - INSIDE && cx <= box.x1 + INSIDE && cy >= box.y0 - INSIDE && cy <= box.y1 + INSIDE;
  });
}

/**
 * A line in two pieces or more, none reaching over the text of two columns (`spans`: where the
 * body's lines lie in each column). A label may overhang its column into the gutter ("Pos." over
 * a column of item numbers).
 */
function fitsColumns(line: Line, spans: readonly (Span | undefined)[]): boolean {
  const chunks = chunksOf(line);
  return chunks.length >= 2 && chunks.every((c) => spans.filter((s) => s && c.x0 < s.x1 && c.x1 > s.x0).length <= 1);
}

/**
 * Lines right above (its header) or right below (a total under the last rule) a table ruled only
 * between rows, each close to the next and with pieces in the table's columns; at most three.
 * `spans`: where the table's lines of figures lie in each column.
 */
function linesBeside(lines: readonly Line[], box: Box, spans: readonly (Span | undefined)[], side: 'above' | 'below'): Line[] {
  const within = (l: Line): boolean => l.box.x0 >= box.x0 - 2 && l.box.x1 <= box.x1 + 2;
  const beside =
    side === 'above'
      ? lines.filter((l) => within(l) && l.box.y1 <= box.y0 + INSIDE).sort((a, b) => b.box.y1 - a.box.y1)
      : lines.filter((l) => within(l) && l.box.y0 >= box.y1 - INSIDE).sort((a, b) => a.box.y0 - b.box.y0);
  const taken: Line[] = [];
  let edge = side === 'above' ? box.y0 : box.y1;
  for (const line of beside) {
    const gap = side === 'above' ? edge - line.box.y1 : line.box.y0 - edge;
    if (gap > 1.2 * line.size || taken.length >= 3 || !fitsColumns(line, spans)) break;
    // Below the table only figures continue it (totals); text there starts what follows.
    if (side === 'below' && !holdsFigure(line.words)) break;
    taken.push(line);
    edge = side === 'above' ? line.box.y0 : line.box.y1;
  }
  return taken;
}

export function ruledGrid(region: RuledRegion, pageWords: readonly PageWord[], pageLines: readonly Line[]): GridRows | undefined {
  let box = { ...region.box };
  let words = wordsInside(pageWords, box);
  if (words.length === 0) return undefined;
  const verticals = region.vertical;
  const horizontals = region.horizontal;

  let headerHint = 0;
  let footer: Line[] = [];
  // Where the lines of figures lie in each column, once the columns are known (totals under the
  // last rule are placed by them).
  let figures: (Span | undefined)[] = [];
  let xs = [box.x0, ...positions(verticals).filter((x) => x > box.x0 + 3 && x < box.x1 - 3), box.x1];
  const ruledColumns = xs.length > 2;
  if (!ruledColumns) {
    let lines = groupLines(words);
    xs = whitespaceColumns(lines, box.x0, box.x1);
    if (verticals.length === 0) {
      const header = linesBeside(pageLines, box, figureSpans(lines, xs), 'above');
      if (header.length) {
        headerHint = header.length;
        box = { ...box, y0: Math.min(...header.map((l) => l.box.y0)) - INSIDE };
        words = wordsInside(pageWords, box);
        lines = groupLines(words);
        xs = whitespaceColumns(lines, box.x0, box.x1);
      }
      figures = figureSpans(lines, xs);
      footer = linesBeside(pageLines, box, figures, 'below');
    }
  } else {
    // Columns the producer left undrawn inside a drawn one.
    const inColumns: PageWord[][] = xs.slice(1).map(() => []);
    for (const w of words) {
      const cx = centerX(w);
      if (cx >= xs[0]! && cx < xs[xs.length - 1]!) inColumns[columnAt(xs, cx)]!.push(w);
    }
    const extra = inColumns.flatMap((inColumn, c) => hiddenColumns(groupLines(inColumn), xs[c]!, xs[c + 1]!));
    xs = [...xs, ...extra].sort((a, b) => a - b);
  }
  if (xs.length < 3) return undefined;

  const ys = [box.y0, ...positions(horizontals).filter((y) => y > box.y0 + 2 && y < box.y1 - 2), box.y1];
  const bands: PageWord[][] = ys.slice(1).map(() => []);
  // Rows are spans of heights as columns are of widths: the same search places a word in both.
  for (const w of words) bands[columnAt(ys, centerY(w))]!.push(w);
  const ruledAcross = ruledAt(horizontals);
  const ruledDown = ruledAt(verticals);

  const rows: CellRow[] = [];
  const lastBand = bands.findLastIndex((b) => b.length > 0);
  // owner[c] = row that the cell of column c continues into when the rule above it is missing.
  let owner: (CellRow | undefined)[] = xs.slice(1).map(() => undefined);
  bands.forEach((bandWords, r) => {
    if (bandWords.length === 0) {
      owner = owner.map(() => undefined);
      return;
    }
    const lines = groupLines(bandWords);
    if (holdsManyRecords(lines, xs, r)) {
      rows.push(...linesToRows(lines, xs));
      owner = owner.map(() => undefined);
      return;
    }
    const row: CellRow = { cells: xs.slice(1).map(() => []), top: ys[r]!, bottom: ys[r + 1]! };
    const spanStart = spanStarts(xs, ys[r]!, ys[r + 1]!, ruledColumns ? ruledDown : undefined);
    // A band holding nothing but one phrase per line is a title across the table, even where
    // column rules run under its text: it stays whole, in the cell where it starts.
    const groups = lines.map(chunkWords);
    const title = lines.length <= 3 && groups.every((g) => g.length === 1) && groups.some((g) => crossesRule(g[0]!, xs));
    // The same under the rows, in the table's last band, is its notes ("(1) ...", a source),
    // unless it is a short line with a figure: a total set across the cells.
    const total = lines.some((l) => l.words.length <= 3 && holdsFigure(l.words));
    if (title && !total && r === lastBand && rows.length >= 2) return;
    lines.forEach((line, i) => placeLine(groups[i]!, xs, title ? xs.slice(1).map(() => 0) : spanStart, row));
    let own = false;
    row.cells.forEach((cellWords, c) => {
      const above = owner[c];
      const open = above !== undefined && horizontals.length > 0 && !ruledAcross(ys[r]!, xs[c]!, xs[c + 1]!);
      if (open && cellWords.length) {
        above.cells[c]!.push(...cellWords);
        row.cells[c] = [];
      } else if (cellWords.length) own = true;
      if (!open) owner[c] = row;
    });
    if (own) rows.push(row);
    else row.cells.forEach((_, c) => owner[c] === row && (owner[c] = undefined));
  });
  // Lines under the last rule are rows of their own, outside the bands.
  if (footer.length) {
    rows.push(...linesToRows(footer, xs, figures));
    box = { ...box, y1: Math.max(...footer.map((l) => l.box.y1)) + INSIDE };
  }
  return { box, xs, rows, headerHint };
}

/** A band (between two rules) with several full lines of figures, not one row of wrapped cells. */
function holdsManyRecords(lines: readonly Line[], xs: readonly number[], band: number): boolean {
  if (lines.length === 2) return twoRecords(lines[0]!, lines[1]!, xs);
  if (lines.length < 3) return false;
  const perColumn = xs.slice(1).map(() => 0);
  let values = 0;
  for (const line of lines) {
    const seen = new Set<number>();
    for (const w of line.words) seen.add(columnOfWord(xs, w));
    for (const c of seen) perColumn[c]!++;
    if (holdsFigure(line.words)) values++;
  }
  const used = perColumn.filter((n) => n > 0);
  if (used.length < 2 || Math.min(...used) < 2) return false;
  return band > 0 || values >= 2;
}

/** Two lines filling the same columns, with figures in two or more of them on both: no wrapped row does that. */
function twoRecords(a: Line, b: Line, xs: readonly number[]): boolean {
  const columns = (line: Line): Map<number, boolean> => {
    const cells = new Map<number, boolean>();
    for (const w of line.words) {
      const c = columnOfWord(xs, w);
      cells.set(c, (cells.get(c) ?? false) || isValueLike(w.text));
    }
    return cells;
  };
  const [ca, cb] = [columns(a), columns(b)];
  if (ca.size < 2 || ca.size !== cb.size || [...ca.keys()].some((c) => !cb.has(c))) return false;
  return [...ca].filter(([c, value]) => value && cb.get(c)).length >= 2;
}

/**
 * For each column, the first column of the run of cells merged with it in this band.
 * `ruledDown`: the table's column rules (undefined when it has none: every column stands alone).
 */
function spanStarts(xs: readonly number[], top: number, bottom: number, ruledDown: RuledAt | undefined): number[] {
  const starts = [0];
  for (let c = 1; c + 1 < xs.length; c++) {
    const drawn = !ruledDown || ruledDown(xs[c]!, top, bottom);
    starts.push(drawn ? c : starts[c - 1]!);
  }
  return starts;
}

function crossesRule(words: readonly PageWord[], xs: readonly number[]): boolean {
  return columnOfWord(xs, words[0]!) !== columnOfWord(xs, words[words.length - 1]!);
}

/** A lone phrase across merged cells goes to the first of them; several phrases keep their columns. */
function placeLine(groups: readonly PageWord[][], xs: readonly number[], spanStart: readonly number[], row: CellRow): void {
  const perSpan = new Map<number, number>();
  for (const g of groups) {
    const s = spanStart[columnOfWord(xs, g[0]!)]!;
    perSpan.set(s, (perSpan.get(s) ?? 0) + 1);
  }
  for (const g of groups) {
    const first = spanStart[columnOfWord(xs, g[0]!)]!;
    const last = spanStart[columnOfWord(xs, g[g.length - 1]!)]!;
    if (first === last && perSpan.get(first) === 1) row.cells[first]!.push(...g);
    else for (const w of g) row.cells[columnOfWord(xs, w)]!.push(w);
  }
}


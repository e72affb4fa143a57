// Column boundaries from whitespace: x ranges that no chunk of a table line covers.
import { type Box, type Span, median } from './geometry.js';
import { chunkWords, chunksOf, type Line } from './lines.js';
import { isValueLike } from './cells.js';

// A gutter narrower than this share of the font size parts no columns.
const MIN_GAP = 0.3;
// Lines of figures that must agree on a gutter before a header line may cross it.
const MIN_FIGURE_LINES = 3;

/** Boundaries [left, ...gaps, right] of the columns the lines' chunks leave between them. */
export function whitespaceColumns(lines: readonly Line[], left: number, right: number, minGap = MIN_GAP): number[] {
  const chunked = lines.map(chunksOf);
  const multi = chunked.flatMap((c, i) => (c.length >= 2 ? [i] : []));
  const basis = multi.length >= 2 ? multi : lines.map((_, i) => i);
  const size = median(lines.map((l) => l.size)) || 10;
  const spans = unionSpans(chunksOutsideGutters(lines, chunked, basis, size));
  const xs = [left];
  for (let i = 1; i < spans.length; i++) {
    const gap = spans[i]!.x0 - spans[i - 1]!.x1;
    if (gap >= minGap * size) xs.push((spans[i]!.x0 + spans[i - 1]!.x1) / 2);
  }
  xs.push(right);
  return xs;
}

/**
 * The chunks of the lines at indices `basis` (`chunked[i]` the chunks of `lines[i]`). Above the
 * first line of figures (the header), labels may reach into the gutters between the figures'
 * columns: labels of neighbouring columns nearly touch ("Weighted student" "and student"), a
 * label spans two columns ("Sales volume" over "Planned" "Actual") or overhangs its column. There
 * a chunk counts only outside the gutters that every line of figures leaves, so the figures'
 * columns stay apart (rows.ts then places the label's words).
 */
function chunksOutsideGutters(lines: readonly Line[], chunked: readonly Box[][], basis: readonly number[], size: number): Box[] {
  const figureLines = lines.flatMap((l, i) => (chunked[i]!.length >= 2 && ofFigures(l) ? [i] : []));
  const firstFigures = figureLines[0];
  if (figureLines.length < MIN_FIGURE_LINES || firstFigures === undefined) return basis.flatMap((i) => chunked[i]!);
  const spans = unionSpans(figureLines.flatMap((i) => chunked[i]!));
  const gutters = spans.slice(1).map((s, i) => ({ x0: spans[i]!.x1, x1: s.x0 })).filter((g) => g.x1 - g.x0 >= MIN_GAP * size);
  const headerEnd = lines[firstFigures]!.box.y0;
  return basis.flatMap((i) => (lines[i]!.box.y0 < headerEnd ? chunked[i]!.flatMap((c) => clipped(c, gutters)) : chunked[i]!));
}

/**
 * A line at least half of whose chunks are figures: a row of a table's body. A caption with a
 * number in it ("Table S-4. ... by Category 1") and a page number beside it is not one.
 */
function ofFigures(line: Line): boolean {
  const chunks = chunkWords(line);
  const figures = chunks.filter((ws) => isValueLike(ws.map((w) => w.text).join(' '))).length;
  return figures > 0 && 2 * figures >= chunks.length;
}

/** The parts of a box outside the given spans; a box wholly inside one stays (a label set off its figures). */
function clipped(box: Box, spans: readonly Span[]): Box[] {
  if (spans.some((s) => box.x0 >= s.x0 && box.x1 <= s.x1)) return [box];
  let parts = [box];
  for (const s of spans) {
    parts = parts.flatMap((p) => {
      if (p.x1 <= s.x0 || p.x0 >= s.x1) return [p];
      const left = p.x0 < s.x0 ? [{ ...p, x1: s.x0 }] : [];
      const right = p.x1 > s.x1 ? [{ ...p, x0: s.x1 }] : [];
      return [...left, ...right];
    });
  }
  return parts;
}

export function unionSpans(boxes: readonly Box[]): Span[] {
  const sorted = [...boxes].sort((a, b) => a.x0 - b.x0);
  const out: Span[] = [];
  for (const b of sorted) {
    const last = out[out.length - 1];
    if (last && b.x0 <= last.x1) last.x1 = Math.max(last.x1, b.x1);
    else out.push({ x0: b.x0, x1: b.x1 });
  }
  return out;
}

/**
 * Extra boundaries inside a ruled column: whitespace that runs through every one of its lines
 * with text on both sides of it in enough lines (a border the producer did not draw).
 */
export function hiddenColumns(lines: readonly Line[], left: number, right: number): number[] {
  if (lines.length < 2) return [];
  const size = median(lines.map((l) => l.size)) || 10;
  // Few lines can leave a river by chance: ask for a wider one.
  const xs = whitespaceColumns(lines, left, right, lines.length < 5 ? 1.5 : 1.0);
  const inner = xs.slice(1, -1);
  // whitespaceColumns reads gaps off the lines of several chunks only (a title may span columns);
  // here no line may cross the boundary: one label in two pieces does not make a column.
  const chunks = lines.map(chunksOf);
  return inner.filter((x) => {
    if (chunks.some((cs) => cs.some((c) => c.x0 < x && c.x1 > x))) return false;
    let both = 0;
    for (const line of lines) {
      const hasLeft = line.words.some((w) => w.x1 < x);
      const hasRight = line.words.some((w) => w.x0 > x);
      if (hasLeft && hasRight) both++;
    }
    return both >= 1 && x - left > size && right - x > size;
  });
}

// Column boundaries from whitespace: x ranges that no chunk of a table line covers.
import { type Box, type Span, median } from './geometry.js';
import { chunksOf, type Line } from './lines.js';

/** Boundaries [left, ...gaps, right] of the columns the lines' chunks leave between them. */
export function whitespaceColumns(lines: readonly Line[], left: number, right: number, minGap = 0.3): number[] {
  const chunked = lines.map(chunksOf);
  const multi = chunked.filter((c) => c.length >= 2);
  const basis = multi.length >= 2 ? multi : chunked;
  const size = median(lines.map((l) => l.size)) || 10;
  const spans = unionSpans(basis.flat());
  const xs = [left];
  for (let i = 1; i < spans.length; i++) {
    const gap = spans[i]!.x0 - spans[i - 1]!.x1;
    if (gap >= minGap * size) xs.push((spans[i]!.x0 + spans[i - 1]!.x1) / 2);
  }
  xs.push(right);
  return xs;
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

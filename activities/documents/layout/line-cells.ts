// A line's words -> the cells of a table's columns.
import { type PageWord, type Span, boxOf } from './geometry.js';
import { columnAt, columnOfWord, holdsFigure, isValueLike } from './cells.js';
import { chunkWords, type Line } from './lines.js';

/** Where the words of lines with figures lie in each column (undefined: none there). */
export function figureSpans(lines: readonly Line[], xs: readonly number[]): (Span | undefined)[] {
  const words = lines.filter((l) => holdsFigure(l.words)).flatMap((l) => l.words);
  return xs.slice(1).map((_, c) => {
    const inColumn = words.filter((w) => columnOfWord(xs, w) === c);
    return inColumn.length ? boxOf(inColumn) : undefined;
  });
}

/**
 * Words of a line per column, by their centres. On a line without figures (labels) a run of
 * words goes whole by its centre: a label overhanging its column ("desired population" reaching
 * past the boundary) stays one cell. It parts at a boundary only where each part lies over the
 * figures of its own column: labels of two columns set close together ("Weighted student"
 * "and student"), or one spanning both.
 */
export function cellsOfLine(line: Line, xs: readonly number[], figures: readonly (Span | undefined)[]): PageWord[][] {
  const cells: PageWord[][] = Array.from({ length: xs.length - 1 }, () => []);
  const runs = holdsFigure(line.words) ? labelRuns(line).flatMap((r) => (r.length > 1 ? partsOverFigures(r, xs, figures) : [r])) : chunkWords(line).flatMap((c) => partsOverFigures(c, xs, figures));
  for (const run of runs) cells[columnOfRun(run, xs, figures)]!.push(...run);
  return cells;
}

/**
 * A run's column, by its centre. A label centred over the gutter between two columns' figures
 * and reaching over both ("Totals" over "2013–2017" and "2013–2022") spans them: it goes to the
 * first, as a ruled table's spanning cell does, not to whichever side the boundary leaves it.
 */
function columnOfRun(run: readonly PageWord[], xs: readonly number[], figures: readonly (Span | undefined)[]): number {
  const [x0, x1] = [run[0]!.x0, run[run.length - 1]!.x1];
  const centre = (x0 + x1) / 2;
  const k = columnAt(xs, centre);
  const [left, here] = [figures[k - 1], figures[k]];
  const spans = left !== undefined && here !== undefined && centre > left.x1 && centre < here.x0 && x0 < left.x1 && x1 > here.x0;
  return spans ? k - 1 : k;
}

/**
 * A line with figures in runs: each figure alone (figures of neighbouring columns may be set
 * closer than a gutter), the words between them in runs as on a line of labels ("Total EUR"),
 * with a figure right after a label's word ("VAT 19%"). A run parts where each part lies over the
 * figures of its own column, as on a line of labels.
 */
function labelRuns(line: Line): PageWord[][] {
  const runs: PageWord[][] = [];
  for (const chunk of chunkWords(line)) {
    let label: PageWord[] = [];
    for (const w of chunk) {
      const last = label[label.length - 1];
      if (!isValueLike(w.text) || (last && !isValueLike(last.text))) {
        label.push(w);
        continue;
      }
      if (label.length) runs.push(label);
      label = [];
      runs.push([w]);
    }
    if (label.length) runs.push(label);
  }
  return runs;
}

function partsOverFigures(run: readonly PageWord[], xs: readonly number[], figures: readonly (Span | undefined)[]): PageWord[][] {
  const gapCentre = (i: number): number => (run[i - 1]!.x1 + run[i]!.x0) / 2;
  const over = (from: number, to: number, f: Span | undefined): boolean => f !== undefined && run[from]!.x0 < f.x1 && run[to - 1]!.x1 > f.x0;
  // At each boundary, the word gap nearest to it among those over the gutter between the figures.
  const cuts: { at: number; column: number }[] = [];
  for (let k = 1; k < xs.length - 1; k++) {
    const [left, right] = [figures[k - 1], figures[k]];
    if (!left || !right) continue;
    let best: number | undefined;
    for (let i = 1; i < run.length; i++) {
      if (run[i]!.x0 < left.x1 || run[i - 1]!.x1 > right.x0) continue;
      if (best === undefined || Math.abs(gapCentre(i) - xs[k]!) < Math.abs(gapCentre(best) - xs[k]!)) best = i;
    }
    if (best !== undefined) cuts.push({ at: best, column: k });
  }
  const parts: PageWord[][] = [];
  let start = 0;
  cuts.forEach(({ at, column }, n) => {
    const end = cuts[n + 1]?.at ?? run.length;
    if (at > start && over(start, at, figures[column - 1]) && over(at, end, figures[column])) {
      parts.push(run.slice(start, at));
      start = at;
    }
  });
  parts.push(run.slice(start));
  return parts;
}

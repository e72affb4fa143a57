// Cell accuracy of produced rows against reference rows.
//
// Cells are compared by position after normalising (normalizeCell): Unicode NFKC (full-width
// "（" and ASCII "(" are one character), every dash or hyphen character (U+2010..U+2015, U+2212)
// read as "-", whitespace collapsed and trimmed, and no space kept just inside brackets ("( 498,5)"
// and "(498,5)" are the same figure: padding of a fixed-width number format). Rows are aligned in
// order (a longest-common-subsequence alignment that maximises matched cells), so a missing or
// extra row costs that row only. Accuracy = matched cells / judged cells, where judged cells are
//   for every reference row: max(its cells, the aligned produced row's cells) (all of them when
//     no produced row is aligned to it), plus
//   for every produced row with no reference row that lies between the first and last aligned
//     produced rows: its cells.
// Two blank rows (every cell empty) align with each other.
// Produced rows before the first or after the last aligned row are reported as `unjudged`: the
// references are excerpts (an area of the first page), so text outside them cannot be judged.

export function normalizeCell(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212]/gu, '-')
    .replace(/\s+/gu, ' ')
    .replace(/([([{]) /gu, '$1')
    .replace(/ ([)\]}])/gu, '$1')
    .trim();
}

export interface Score {
  accuracy: number;
  matchedCells: number;
  judgedCells: number;
  expectedRows: number;
  producedRows: number;
  alignedRows: number;
  unjudgedRows: number;
}

function matched(a: readonly string[], b: readonly string[]): number {
  const n = Math.max(a.length, b.length);
  let m = 0;
  for (let i = 0; i < n; i++) if (normalizeCell(a[i] ?? '') === normalizeCell(b[i] ?? '')) m++;
  return m;
}

let lastPairs: [number, number][] = [];

/** Human-readable differences of the last alignment (for --verbose). */
export function differences(expected: readonly string[][], produced: readonly string[][]): string[] {
  scoreRows(expected, produced);
  const out: string[] = [];
  const partner = new Map(lastPairs);
  expected.forEach((row, e) => {
    const p = partner.get(e);
    if (p === undefined) {
      out.push(`missing  ${JSON.stringify(row)}`);
      return;
    }
    const got = produced[p]!;
    if (matched(row, got) < Math.max(row.length, got.length)) out.push(`expected ${JSON.stringify(row)}\n    got      ${JSON.stringify(got)}`);
  });
  return out;
}

export function scoreRows(expected: readonly string[][], produced: readonly string[][]): Score {
  const E = expected.length;
  const P = produced.length;
  // best[i][j]: most matched cells aligning expected[i..] with produced[j..]
  const best: number[][] = Array.from({ length: E + 1 }, () => new Array<number>(P + 1).fill(0));
  const sim = (i: number, j: number): number => {
    const m = matched(expected[i]!, produced[j]!);
    // A pair that shares no non-empty cell is no alignment, unless both are blank (a row with
    // text only outside the template's columns, projected, on both sides).
    const shared = expected[i]!.some((c, k) => normalizeCell(c) !== '' && normalizeCell(c) === normalizeCell(produced[j]![k] ?? ''));
    const blank = (row: readonly string[]): boolean => row.every((c) => normalizeCell(c) === '');
    return shared || (blank(expected[i]!) && blank(produced[j]!)) ? m : -1;
  };
  const simCache: number[][] = Array.from({ length: E }, (_, i) => Array.from({ length: P }, (_, j) => sim(i, j)));
  for (let i = E - 1; i >= 0; i--) {
    for (let j = P - 1; j >= 0; j--) {
      const s = simCache[i]![j]!;
      best[i]![j] = Math.max(best[i + 1]![j]!, best[i]![j + 1]!, s >= 0 ? s + best[i + 1]![j + 1]! : -Infinity);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < E && j < P) {
    const s = simCache[i]![j]!;
    if (s >= 0 && best[i]![j] === s + best[i + 1]![j + 1]!) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (best[i]![j] === best[i + 1]![j]) i++;
    else j++;
  }
  const partner = new Map(pairs);
  lastPairs = pairs;
  let matchedCells = 0;
  let judgedCells = 0;
  expected.forEach((row, e) => {
    const p = partner.get(e);
    if (p === undefined) judgedCells += row.length;
    else {
      judgedCells += Math.max(row.length, produced[p]!.length);
      matchedCells += matched(row, produced[p]!);
    }
  });
  const alignedProduced = new Set(pairs.map(([, p]) => p));
  const first = pairs.length ? pairs[0]![1] : P;
  const last = pairs.length ? pairs[pairs.length - 1]![1] : -1;
  let unjudgedRows = 0;
  produced.forEach((row, p) => {
    if (alignedProduced.has(p)) return;
    if (p > first && p < last) judgedCells += row.length;
    else unjudgedRows++;
  });
  return {
    accuracy: judgedCells ? matchedCells / judgedCells : P === 0 ? 1 : 0,
    matchedCells,
    judgedCells,
    expectedRows: E,
    producedRows: P,
    alignedRows: pairs.length,
    unjudgedRows,
  };
}

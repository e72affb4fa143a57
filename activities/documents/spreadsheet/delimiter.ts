// Guesses a CSV file's delimiter from its first lines: the candidate that splits the lines into
// the same number of cells most consistently wins. Counting happens outside quotes only, so a
// comma inside "Smith, John" does not vote for the comma.

export const DELIMITER_CANDIDATES = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITER_CANDIDATES)[number];

const MAX_LINES = 100;

/**
 * `complete` says whether `sample` is the whole file; if not, its last line may be cut short and
 * is not counted. Falls back to the comma when no candidate occurs at all (a one-column file).
 */
export function detectDelimiter(sample: string, complete: boolean): Delimiter {
  const lines = countPerLine(sample, complete);
  let best: Delimiter = ',';
  let bestConsistency = 0;
  let bestCount = 0;
  DELIMITER_CANDIDATES.forEach((candidate, k) => {
    const counts = lines.map((line) => line[k] ?? 0);
    const mode = modeOf(counts);
    if (mode === 0) return;
    const consistency = counts.filter((count) => count === mode).length / counts.length;
    // Earlier candidates win ties, which is why the loop keeps only strict improvements.
    if (consistency > bestConsistency || (consistency === bestConsistency && mode > bestCount)) {
      best = candidate;
      bestConsistency = consistency;
      bestCount = mode;
    }
  });
  return best;
}

/** For each non-blank line, how often each candidate occurs outside quotes. */
function countPerLine(sample: string, complete: boolean): number[][] {
  const codes = DELIMITER_CANDIDATES.map((candidate) => candidate.charCodeAt(0));
  const lines: number[][] = [];
  let counts = codes.map(() => 0);
  let lineHasText = false;
  let inQuotes = false;
  let previous = -1;
  for (let i = 0; i < sample.length && lines.length < MAX_LINES; i++) {
    const c = sample.charCodeAt(i);
    if (inQuotes) {
      if (c === 0x22) inQuotes = false; // an escaped "" closes and at once reopens below
      previous = c;
      continue;
    }
    if (c === 0x0a || c === 0x0d) {
      if (lineHasText) lines.push(counts);
      counts = codes.map(() => 0);
      lineHasText = false;
    } else {
      lineHasText = true;
      const k = codes.indexOf(c);
      if (k >= 0) counts[k] = (counts[k] ?? 0) + 1;
      // Only a quote opening a cell starts quoted text; a stray one (5" screen) is just text.
      else if (c === 0x22 && (previous === -1 || previous === 0x0a || previous === 0x0d || previous === 0x22 || codes.includes(previous))) {
        inQuotes = true;
      }
    }
    previous = c;
  }
  // A cut-off last line is still better evidence than none when it is the only line.
  if (lineHasText && lines.length < MAX_LINES && (complete || lines.length === 0)) lines.push(counts);
  return lines;
}

function modeOf(values: number[]): number {
  const tally = new Map<number, number>();
  let mode = 0;
  let modeTally = 0;
  for (const value of values) {
    const t = (tally.get(value) ?? 0) + 1;
    tally.set(value, t);
    if (t > modeTally || (t === modeTally && value > mode)) {
      mode = value;
      modeTally = t;
    }
  }
  return mode;
}

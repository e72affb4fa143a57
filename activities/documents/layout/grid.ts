// Ruling lines -> ruled regions: groups of connected horizontal and vertical rules (lattices),
// and stacks of horizontal rules with no verticals (tables ruled between rows only).
import type { Box, Ruling } from './geometry.js';

export interface RuledRegion {
  box: Box;
  horizontal: Ruling[];
  vertical: Ruling[];
}

const SNAP = 1.5; // rules this close (points) are one line drawn twice or in pieces
const JOIN = 3; // pieces of one line with gaps up to this long are joined
const TOUCH = 3; // a horizontal and a vertical rule this close meet

/** Merges rules that are pieces of the same line. */
export function mergeRulings(rulings: readonly Ruling[], minLength = 2): Ruling[] {
  const out: Ruling[] = [];
  for (const horizontal of [true, false]) {
    const group = rulings.filter((r) => r.horizontal === horizontal).sort((a, b) => a.at - b.at);
    let i = 0;
    while (i < group.length) {
      let j = i;
      while (j + 1 < group.length && group[j + 1]!.at - group[j]!.at <= SNAP) j++;
      const band = group.slice(i, j + 1).sort((a, b) => a.from - b.from);
      const at = band.reduce((s, r) => s + r.at, 0) / band.length;
      let cur: Ruling | undefined;
      for (const r of band) {
        if (cur && r.from <= cur.to + JOIN) cur.to = Math.max(cur.to, r.to);
        else {
          cur = { horizontal, at, from: r.from, to: r.to };
          out.push(cur);
        }
      }
      i = j + 1;
    }
  }
  return out.filter((r) => r.to - r.from >= minLength);
}

function meets(h: Ruling, v: Ruling): boolean {
  return v.at >= h.from - TOUCH && v.at <= h.to + TOUCH && h.at >= v.from - TOUCH && h.at <= v.to + TOUCH;
}

export function findRuledRegions(rulings: readonly Ruling[], pageWidth: number, pageHeight: number): RuledRegion[] {
  // Rules along the page edge are frames of the sheet, not of a table.
  const merged = mergeRulings(rulings, 4).filter((r) => !(r.horizontal ? r.to - r.from > pageWidth * 0.98 && (r.at < 2 || r.at > pageHeight - 2) : r.to - r.from > pageHeight * 0.98 && (r.at < 2 || r.at > pageWidth - 2)));
  const hs = merged.filter((r) => r.horizontal);
  const vs = merged.filter((r) => !r.horizontal);
  const parent = merged.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const index = new Map<Ruling, number>(merged.map((r, i) => [r, i]));
  for (const h of hs) for (const v of vs) if (meets(h, v)) parent[find(index.get(h)!)] = find(index.get(v)!);

  const groups = new Map<number, Ruling[]>();
  merged.forEach((r, i) => {
    const root = find(i);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = []));
    g.push(r);
  });

  const regions: RuledRegion[] = [];
  const loneHorizontal: Ruling[] = [];
  for (const group of groups.values()) {
    const horizontal = group.filter((r) => r.horizontal);
    const vertical = group.filter((r) => !r.horizontal);
    if (horizontal.length && vertical.length) {
      regions.push({ box: boxOfRulings(group), horizontal, vertical });
    } else if (horizontal.length === 1 && vertical.length === 0) {
      loneHorizontal.push(horizontal[0]!);
    }
  }
  regions.push(...stackedHorizontals(loneHorizontal));
  return mergeOverlapping(regions.filter((r) => r.box.x1 - r.box.x0 > 10 && r.box.y1 - r.box.y0 > 4));
}

/** Horizontal rules of about the same extent, stacked: a table ruled between rows. */
function stackedHorizontals(rules: Ruling[]): RuledRegion[] {
  const regions: RuledRegion[] = [];
  const sorted = rules.filter((r) => r.to - r.from > 40).sort((a, b) => a.at - b.at);
  const used = new Set<Ruling>();
  for (const r of sorted) {
    if (used.has(r)) continue;
    const stack = sorted.filter((o) => !used.has(o) && Math.abs(o.from - r.from) < 6 && Math.abs(o.to - r.to) < 6);
    if (stack.length < 2) continue;
    for (const o of stack) used.add(o);
    regions.push({ box: boxOfRulings(stack), horizontal: stack, vertical: [] });
  }
  return regions;
}

function boxOfRulings(rules: readonly Ruling[]): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const r of rules) {
    if (r.horizontal) {
      x0 = Math.min(x0, r.from);
      x1 = Math.max(x1, r.to);
      y0 = Math.min(y0, r.at);
      y1 = Math.max(y1, r.at);
    } else {
      y0 = Math.min(y0, r.from);
      y1 = Math.max(y1, r.to);
      x0 = Math.min(x0, r.at);
      x1 = Math.max(x1, r.at);
    }
  }
  return { x0, y0, x1, y1 };
}

function overlapArea(a: Box, b: Box): number {
  return Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
}

// A region nested in or overlapping another (a shaded header band over a lattice) is one table.
function mergeOverlapping(regions: RuledRegion[]): RuledRegion[] {
  const out = [...regions];
  let changed = true;
  while (changed) {
    changed = false;
    for (let i = 0; i < out.length && !changed; i++) {
      for (let j = i + 1; j < out.length && !changed; j++) {
        const a = out[i]!;
        const b = out[j]!;
        const smaller = Math.min(area(a.box), area(b.box));
        if (smaller > 0 && overlapArea(a.box, b.box) > 0.5 * smaller) {
          out[i] = {
            box: { x0: Math.min(a.box.x0, b.box.x0), y0: Math.min(a.box.y0, b.box.y0), x1: Math.max(a.box.x1, b.box.x1), y1: Math.max(a.box.y1, b.box.y1) },
            horizontal: [...a.horizontal, ...b.horizontal],
            vertical: [...a.vertical, ...b.vertical],
          };
          out.splice(j, 1);
          changed = true;
        }
      }
    }
  }
  return out;
}

function area(b: Box): number {
  return (b.x1 - b.x0) * (b.y1 - b.y0);
}

/** Distinct positions of rules (clustered within SNAP), sorted. */
export function positions(rules: readonly Ruling[]): number[] {
  const ats = rules.map((r) => r.at).sort((a, b) => a - b);
  const out: number[] = [];
  for (const at of ats) {
    const last = out[out.length - 1];
    if (last !== undefined && at - last <= SNAP * 2) continue;
    out.push(at);
  }
  return out;
}

/** Whether some rule at `at` covers at least `share` of [from, to]. */
export type RuledAt = (at: number, from: number, to: number, share?: number) => boolean;

/**
 * `rules` indexed by position for RuledAt questions: a table asks once per cell, and a page
 * ruled into thousands of cells has as many rules (a font's glyph chart took 1.5 s to lay out
 * when each question went through every rule).
 */
export function ruledAt(rules: readonly Ruling[]): RuledAt {
  const sorted = [...rules].sort((a, b) => a.at - b.at);
  return (at, from, to, share = 0.5) => {
    const need = (to - from) * share;
    let covered = 0;
    for (let i = firstAtOrAfter(sorted, at - SNAP * 2); i < sorted.length && sorted[i]!.at <= at + SNAP * 2; i++) {
      const r = sorted[i]!;
      covered += Math.max(0, Math.min(r.to, to) - Math.max(r.from, from));
      if (covered >= need) return true;
    }
    return false;
  };
}

/** Index of the first rule (sorted by position) at `at` or after it. */
function firstAtOrAfter(sorted: readonly Ruling[], at: number): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.at < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

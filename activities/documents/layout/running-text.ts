// Running heads and feet: a company name and "Confidential" over every page, "Page 2 of 3" under
// it. They are no part of the tables: left in, a running head became the first row (and the
// header) of a table, which then no longer continued onto the next page.
//
// A line is running text when it stands in the top or bottom margin of its page, apart from the
// page's body (a gap of more than MARGIN_GAP line heights), and the same text (figures aside: page
// numbers, dates) stands at the same height on another page. A table header repeated at the top
// of each page is not: it sits tight over its rows.
import type { PageGeometry } from './geometry.js';
import { lineText, type Line } from './lines.js';

// Share of the page's height at the top and at the bottom where running text stands.
const MARGIN_SHARE = 0.15;
// A running head stands further from the body than this many of its heights.
const MARGIN_GAP = 1.5;
// Heights on two pages closer than this (points) are the same place.
const SAME_PLACE = 3;

/** The lines of each page that are running heads or feet (empty sets for a one-page document). */
export function runningLines(pages: readonly PageGeometry[], linesByPage: readonly (readonly Line[])[]): Set<Line>[] {
  const candidates = pages.map((page, i) => marginLines(page, linesByPage[i]!));
  const found = pages.map(() => new Set<Line>());
  if (pages.length < 2) return found;
  // Where each text (figures aside) stands: page and height.
  const places = new Map<string, { page: number; y: number }[]>();
  const keyed = candidates.map((lines, page) =>
    lines.map((line) => {
      const key = lineText(line).replace(/\d+/gu, '#').replace(/\s+/gu, ' ').trim();
      places.set(key, [...(places.get(key) ?? []), { page, y: line.box.y0 }]);
      return { line, key };
    }),
  );
  keyed.forEach((lines, page) => {
    for (const { line, key } of lines) {
      if (places.get(key)!.some((p) => p.page !== page && Math.abs(p.y - line.box.y0) <= SAME_PLACE)) found[page]!.add(line);
    }
  });
  return found;
}

/** Lines in the page's top and bottom margins, each block set apart from the body by a wide gap. */
function marginLines(page: PageGeometry, lines: readonly Line[]): Line[] {
  const sorted = [...lines].sort((a, b) => a.box.y0 - b.box.y0);
  const out: Line[] = [];
  // From the top down, then from the bottom up: the block ends at the first wide gap.
  for (const fromTop of [true, false]) {
    const order = fromTop ? sorted : [...sorted].reverse();
    const block: Line[] = [];
    for (let i = 0; i < order.length; i++) {
      const line = order[i]!;
      const inMargin = fromTop ? line.box.y1 <= MARGIN_SHARE * page.height : line.box.y0 >= (1 - MARGIN_SHARE) * page.height;
      if (!inMargin) break;
      block.push(line);
      const next = order[i + 1];
      const gap = next ? (fromTop ? next.box.y0 - line.box.y1 : line.box.y0 - next.box.y1) : Infinity;
      if (gap > MARGIN_GAP * Math.max(line.size, next?.size ?? 0)) {
        out.push(...block);
        break;
      }
    }
  }
  return out;
}

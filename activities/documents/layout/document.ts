// Pages -> the document's tables (continuations joined) and its text lines. Pure geometry.
import type { TextLine } from '../types.js';
import { markRuledStarts, splitAtRules, type PageGeometry } from './geometry.js';
import { joinContinuedTables } from './continuation.js';
import { groupLines, lineText, type Line } from './lines.js';
import { findPageTables } from './page-tables.js';
import { runningLines } from './running-text.js';
import type { LayoutTable } from './table.js';

export interface DocumentLayout {
  tables: (LayoutTable & { name: string; startMarker?: string })[];
  lines: TextLine[];
}

export function layoutDocument(input: readonly PageGeometry[]): DocumentLayout {
  const pages = input.map((p) => markRuledStarts(splitAtRules(p)));
  const linesByPage = pages.map((p) => groupLines(p.words));
  // Tables are found without the running heads and feet; the text lines (fields) keep them.
  const running = runningLines(pages, linesByPage);
  const bodyLines = linesByPage.map((lines, i) => (running[i]!.size ? lines.filter((l) => !running[i]!.has(l)) : lines));
  const tablesByPage = pages.map((p, i) => {
    if (running[i]!.size === 0) return findPageTables(p, linesByPage[i]);
    const words = new Set([...running[i]!].flatMap((l) => l.words));
    return findPageTables({ ...p, words: p.words.filter((w) => !words.has(w)) }, bodyLines[i]);
  });
  const markers = new Map<LayoutTable, string | undefined>();
  tablesByPage.forEach((tables, i) => {
    for (const t of tables) markers.set(t, textAbove(t, tables, bodyLines[i]!));
  });
  const joined = joinContinuedTables(tablesByPage, pages.map((p) => p.width));
  const counter = new Map<number, number>();
  const tables = joined.map((t) => {
    const n = (counter.get(t.page) ?? 0) + 1;
    counter.set(t.page, n);
    return { ...t, name: `page ${t.page} table ${n}`, startMarker: markers.get(t) };
  });
  const lines: TextLine[] = [];
  pages.forEach((p, i) => {
    for (const line of linesByPage[i]!) {
      lines.push({ page: p.page, text: lineText(line), words: line.words.map(({ text, x0, y0, x1, y1 }) => ({ text, x0, y0, x1, y1 })) });
    }
  });
  return { tables, lines };
}

/** The nearest line above the table that is not part of a table: its caption or title. */
function textAbove(table: LayoutTable, tables: readonly LayoutTable[], lines: readonly Line[]): string | undefined {
  let best: Line | undefined;
  for (const line of lines) {
    if (line.box.y1 > table.box.y0 + 1) continue;
    if (line.box.x1 < table.box.x0 || line.box.x0 > table.box.x1) continue;
    const cy = (line.box.y0 + line.box.y1) / 2;
    if (tables.some((t) => cy >= t.box.y0 && cy <= t.box.y1 && line.box.x0 < t.box.x1 && line.box.x1 > t.box.x0)) continue;
    if (!best || line.box.y1 > best.box.y1) best = line;
  }
  return best ? lineText(best) : undefined;
}

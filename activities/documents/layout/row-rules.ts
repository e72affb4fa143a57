// Whether horizontal rules with no vertical ones bound a table. Many tables are drawn with a rule
// over and under the header, or a short rule over each column's subtotal, and nothing more: such
// rules mark rows inside a table whose extent only its aligned text tells (text-table.ts).
import type { RuledRegion } from './grid.js';
import { chunksOf, type Line } from './lines.js';

// Lines below the last rule, each this close (font sizes) under the one before, read on from it.
const RUN_ON_GAP = 1.5;
// Tabular lines under the last rule beyond a short run of totals (ruled-table.ts takes three):
// the body of a table whose rules stopped with its header.
const RUN_ON_LINES = 4;

/**
 * Whether the region's rules bound the table they rule: not when most lines among its rules run
 * beyond their ends (rules over the figures of subtotal rows, the labels to their left), nor when
 * tabular lines run on under the last rule (a rule over and under a header, none under the body).
 */
export function rulesBoundTable(region: RuledRegion, lines: readonly Line[]): boolean {
  if (region.vertical.length > 0) return true;
  const { box } = region;
  const among = lines.filter((l) => l.box.y0 < box.y1 && l.box.y1 > box.y0 && l.box.x1 > box.x0 && l.box.x0 < box.x1);
  const beyond = among.filter((l) => l.words.some((w) => w.x1 < box.x0 - l.size || w.x0 > box.x1 + l.size));
  if (beyond.length >= 2 && 2 * beyond.length >= among.length) return false;
  let edge = box.y1;
  let tabular = 0;
  for (const line of lines.filter((l) => l.box.y0 >= box.y1 - 1 && l.box.x0 >= box.x0 - l.size && l.box.x1 <= box.x1 + l.size)) {
    if (line.box.y0 - edge > RUN_ON_GAP * line.size) break;
    if (chunksOf(line).length >= 2 && ++tabular >= RUN_ON_LINES) return false;
    edge = line.box.y1;
  }
  return true;
}

// Finds template field values in spreadsheet cells: "Invoice number: 123" in one cell, or a
// label cell with its value to the right or just below.
import type { TemplateField } from '../../lib/template.js';
import { matchesType } from '../validation/data-types.js';
import { labelSimilarity } from './header-match.js';

const LABEL_THRESHOLD = 0.8;

function labelsOf(field: Pick<TemplateField, 'key' | 'name' | 'description'>): string[] {
  return [field.name, field.key.replace(/_/g, ' '), ...(field.description ? [field.description] : [])];
}

function labelScore(text: string, field: Pick<TemplateField, 'key' | 'name' | 'description'>): number {
  const cleaned = text.replace(/[:#]\s*$/, '').trim();
  return Math.max(...labelsOf(field).map((l) => labelSimilarity(cleaned, l)));
}

export function findCellFields(sheets: string[][][], fields: TemplateField[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of fields) {
    let best: { value: string; score: number } | null = null;
    const consider = (value: string, score: number) => {
      const v = value.trim();
      if (!v) return;
      const typed = field.data_type === 'string' || matchesType(field.data_type, v) ? 0.1 : -0.3;
      if (!best || score + typed > best.score) best = { value: v, score: score + typed };
    };
    for (const rows of sheets) {
      rows.forEach((row, r) => {
        row.forEach((cell, c) => {
          if (!cell.trim()) return;
          const inline = /^(.{2,60}?)\s*[:=]\s*(.+)$/.exec(cell.trim());
          if (inline) {
            const s = labelScore(inline[1]!, field);
            if (s >= LABEL_THRESHOLD) consider(inline[2]!, s + 0.05);
          }
          const s = labelScore(cell, field);
          if (s < LABEL_THRESHOLD) return;
          const right = row.slice(c + 1).find((x) => x.trim());
          if (right !== undefined) consider(right, s);
          const below = rows[r + 1]?.[c];
          if (below !== undefined) consider(below, s - 0.05);
        });
      });
    }
    values[field.key] = (best as { value: string } | null)?.value ?? '';
  }
  return values;
}

// `template_id=auto`: scores every template of the workspace against the document: its
// file_types against the file's kind, its table headers and field labels against the content.
import type { TemplateSnapshot } from '../../lib/template.js';
import { kindOf } from '../../lib/file-types.js';
import type { FileKind } from '../documents/types.js';
import { labelSimilarity } from './header-match.js';
import { planTables, type SheetSample } from './plan.js';

export const AUTO_THRESHOLD = 0.45;

export interface TemplateScore {
  templateId: string;
  score: number;
}

function fieldScore(template: TemplateSnapshot, texts: string[]): number {
  if (!template.fields.length) return 0;
  let found = 0;
  for (const field of template.fields) {
    const labels = [field.name, field.key.replace(/_/g, ' ')];
    const hit = texts.some((t) => {
      const label = t.replace(/[:#].*$/, '').trim();
      return label.length > 0 && labels.some((l) => labelSimilarity(label, l) >= 0.8);
    });
    if (hit) found++;
  }
  return found / template.fields.length;
}

export function scoreTemplate(template: TemplateSnapshot, kind: FileKind, samples: SheetSample[], texts: string[]): number {
  const kinds = template.file_types.map(kindOf).filter((k) => k !== null);
  if (kinds.length && !kinds.includes(kind)) return 0;
  const tables = template.tables.length ? planTables(samples, template.tables).filter((p) => p.sources.some((s) => s.headerRow >= 0)) : [];
  const tableScore = template.tables.length ? tables.reduce((sum, p) => sum + p.score, 0) / template.tables.length : 0;
  const fields = fieldScore(template, texts);
  const parts = (template.tables.length ? 1 : 0) + (template.fields.length ? 1 : 0);
  const content = parts ? (tableScore + fields) / parts : 0;
  return Math.min(1, content + (kinds.length ? 0.05 : 0));
}

export function chooseTemplate(templates: TemplateSnapshot[], kind: FileKind, samples: SheetSample[], texts: string[]): { best: TemplateSnapshot | null; scores: TemplateScore[] } {
  const scores = templates.map((t) => ({ templateId: t.id, score: scoreTemplate(t, kind, samples, texts) }));
  let best: TemplateSnapshot | null = null;
  let bestScore = AUTO_THRESHOLD;
  templates.forEach((t, i) => {
    if (scores[i]!.score >= bestScore + (best ? 1e-9 : 0)) {
      best = t;
      bestScore = scores[i]!.score;
    }
  });
  return { best, scores };
}

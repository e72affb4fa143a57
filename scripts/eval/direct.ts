// In-process extraction for the evaluation: the engine (readPagedDocument, as extractDocument
// opens a PDF or image) plus the pipeline's own table planning and row projection (planTables,
// then the rows extractDocument writes), so the rows are those the service would store and the direct
// and API figures cannot drift apart.
import { TemplateTableInputSchema, withKeys, type TemplateTable } from '../../lib/template.js';
import { readPagedDocument } from '../../activities/documents/pages.js';
import { parseGuidance } from '../../activities/documents/guidance.js';
import { planTables, plannedRows, sheetSamples, type SheetSample } from '../../activities/mapping/plan.js';
import type { EvalTable } from './template.js';

export interface DirectResult {
  rows: string[][];
  firstRows: string[][];
  note: string;
}

// The evaluation uploads without guidance.
const guidance = parseGuidance(undefined);

export async function readTables(file: string, kind: 'pdf' | 'image'): Promise<SheetSample[]> {
  return sheetSamples((await readPagedDocument(file, kind, { guidance })).sheets);
}

/** The template tables as the API stores them for scripts/eval/api.ts (defaults filled, keys kept). */
export function templateTablesOf(tables: readonly EvalTable[]): TemplateTable[] {
  const input = tables.map((t) => TemplateTableInputSchema.parse({ key: t.key, name: t.key, columns: t.columns }));
  return withKeys(input).map((t) => ({ ...t, columns: withKeys(t.columns) }));
}

/** Rows the pipeline would store for each template table, concatenated in table order. */
export function extractRows(samples: readonly SheetSample[], tables: readonly EvalTable[]): DirectResult {
  const templateTables = templateTablesOf(tables);
  const plans = planTables([...samples], templateTables, guidance.tableStart);
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const table of templateTables) {
    const plan = plans.find((p) => p.tableKey === table.key);
    const sources = plan?.sources ?? [];
    const names = sources.map((s) => samples[s.sheet]!.name).join(' + ');
    notes.push(sources.length === 0 ? 'no table' : sources.every((s) => s.headerRow === -1) ? `by position: ${names}` : `plan: ${names}`);
    rows.push(...plannedRows(samples, plan));
  }
  return { rows, firstRows: samples.map((s) => s.rows[0] ?? []), note: notes.join('; ') };
}

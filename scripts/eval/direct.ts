// In-process extraction for the evaluation: the engine (readPagedDocument) plus the pipeline's own
// table planning (planTables/projectRow), so the rows are those the service would store.
import type { TemplateTable } from '../../lib/template.js';
import { readPagedDocument } from '../../activities/documents/pages.js';
import { isBlankRow, planTables, projectRow, type SheetSample } from '../../activities/mapping/plan.js';
import type { EvalTable } from './template.js';

export interface DirectResult {
  rows: string[][];
  firstRows: string[][];
  note: string;
}

export async function readTables(file: string, kind: 'pdf' | 'image'): Promise<SheetSample[]> {
  const doc = await readPagedDocument(file, kind, { guidance: { tableStart: {} } });
  const samples: SheetSample[] = [];
  for (const sheet of doc.sheets) {
    const rows: string[][] = [];
    for await (const batch of sheet.batches()) rows.push(...batch);
    samples.push({ name: sheet.name, page: sheet.page, rows, startMarker: sheet.startMarker });
  }
  return samples;
}

/**
 * Rows the pipeline would store for each template table, concatenated in table order. When no
 * header matched (a reference without one), the pipeline maps one table by position; the
 * evaluation takes every table, in reading order, cells by position (the reference holds them all).
 */
export function extractRows(samples: readonly SheetSample[], tables: readonly EvalTable[]): DirectResult {
  const templateTables: TemplateTable[] = tables.map((t) => ({
    key: t.key,
    name: t.key,
    columns: t.columns.map((c) => ({ ...c, required: false, validations: [], suggested_mappings: [] })),
  }));
  const plans = planTables([...samples], templateTables);
  const rows: string[][] = [];
  const notes: string[] = [];
  tables.forEach((table, t) => {
    let sources = plans[t]?.sources ?? [];
    let note = sources.length ? `plan: ${sources.map((s) => samples[s.sheet]!.name).join(' + ')}` : '';
    // No header matched (the pipeline then picks one table by position): the reference is compared
    // with every table, in reading order.
    if (tables.length === 1 && sources.every((s) => s.headerRow === -1)) {
      sources = samples.map((_, i) => ({ sheet: i, headerRow: -1, columnToCell: table.columns.map((_, k) => k) }));
      note = `by position: ${samples.map((s) => s.name).join(' + ') || 'no table'}`;
    }
    notes.push(note || 'no table');
    for (const source of sources) {
      samples[source.sheet]!.rows.forEach((cells, at) => {
        if (at <= source.headerRow || isBlankRow(cells)) return;
        rows.push(projectRow(cells, source.columnToCell));
      });
    }
  });
  return { rows, firstRows: samples.map((s) => s.rows[0] ?? []), note: notes.join('; ') };
}

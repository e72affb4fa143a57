// Flow-run activities: thin adapters from the flow-run workflow to the run projection
// (lib/flow-runs), the extraction records and the plain step modules (reconcile, verify,
// export). Every activity is safe to run again after a crash: ids are derived, writes replace.
import { PassThrough } from 'node:stream';
import { ApplicationFailure, heartbeat } from '@temporalio/activity';
import type { Extraction, FlowRun } from '../generated/prisma/index.js';
import type { Database } from '../lib/db.js';
import { createExtractionRecord, workspaceTemplate } from '../lib/extractions.js';
import {
  beginAttempt,
  derivedId,
  exportObjectKey,
  mutateRun,
  recordRunEnd,
  recordRunStatus,
  recordStepFinished,
  recordStepOutput,
  recordStepStarted,
  RunNotFoundError,
  stepExtractionId,
  stepObjectKey,
  stepOf,
  succeededExecution,
  type InputFileRecord,
  type StepStatus,
} from '../lib/flow-runs.js';
import type { ExportConfig, ExtractionConfig, FlowSnapshot, FlowStep, ReconciliationConfig, VerifyConfig, VerifyRule } from '../lib/flows.js';
import type { FileKind } from './documents/types.js';
import { parseRowFilter } from '../lib/row-filter.js';
import { storedTableOf, streamRows, type StoredTable } from '../lib/rows.js';
import type { Storage } from '../lib/storage.js';
import type { TemplateSnapshot } from '../lib/template.js';
import { writeWorkbook, type SheetSource } from './flows/export.js';
import { reconcile, reconcilePreview, type ReconcileResult, type SourceRow } from './flows/reconcile.js';
import { checkRules, type ExtractionFacts, type RuleFacts } from './flows/verify.js';
import { numericValue } from './validation/data-types.js';

export interface FlowActivityDeps {
  db: Database;
  storage: Storage;
}

/** Rows of a reconciliation kept in the run's steps (all of them are in the exported workbook). */
export const PREVIEW_ROWS = 100;
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface StepRef {
  runId: string;
  attempt: number;
  stepId: string;
}

interface ExtractionOutputEntry {
  extraction_id: string;
  file_key: string;
  file_index: number;
  file_name: string;
}

/** Permanent failures do not retry; the message is what the run's `error` shows. */
async function permanently<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RunNotFoundError) throw ApplicationFailure.nonRetryable(error.message, 'NotFound');
    throw error;
  }
}

const ALL_ROWS = { filter: parseRowFilter('all'), columns: [] as string[] };

export function createFlowActivities({ db, storage }: FlowActivityDeps) {
  const { prisma, pool } = db;

  async function load(runId: string): Promise<FlowRun> {
    const run = await prisma.flowRun.findUnique({ where: { id: runId } });
    if (!run) throw ApplicationFailure.nonRetryable(`Flow run ${runId} does not exist`, 'NotFound');
    return run;
  }

  const configOf = <T>(run: FlowRun, stepId: string) => stepOf(run, stepId).config as unknown as T;

  /** The extractions of an extraction step's latest succeeded execution, in file order. */
  async function stepExtractions(run: FlowRun, stepId: string): Promise<Extraction[]> {
    const execution = succeededExecution(run, stepId);
    if (!execution) throw ApplicationFailure.nonRetryable(`Step '${stepId}' has not succeeded in this run`, 'InvalidFlow');
    const entries = ((execution.output?.extractions ?? []) as ExtractionOutputEntry[]).map((e) => e.extraction_id);
    const records = await prisma.extraction.findMany({ where: { id: { in: entries } } });
    return entries.map((id) => records.find((r) => r.id === id)).filter((r): r is Extraction => !!r);
  }

  async function storedTable(extractionId: string, tableKey: string): Promise<StoredTable | null> {
    const record = await prisma.extractionTable.findUnique({ where: { extractionId_key: { extractionId, key: tableKey } } });
    return record ? storedTableOf(record) : null;
  }

  const tableOfExtraction = (e: Extraction, tableKey: string) => (e.template as unknown as TemplateSnapshot).tables?.find((t) => t.key === tableKey);

  async function* tableBatches(e: Extraction, tableKey: string): AsyncGenerator<string[][]> {
    const stored = await storedTable(e.id, tableKey);
    if (!stored) return;
    yield* streamRows(pool, stored, ALL_ROWS);
  }

  async function sideRows(run: FlowRun, stepId: string, tableKey: string): Promise<SourceRow[]> {
    const rows: SourceRow[] = [];
    for (const e of await stepExtractions(run, stepId)) {
      const keys = tableOfExtraction(e, tableKey)?.columns.map((c) => c.key) ?? [];
      let index = 0;
      for await (const batch of tableBatches(e, tableKey)) {
        for (const values of batch) {
          rows.push({ extraction_id: e.id, file_name: e.fileName, index: index++, values: Object.fromEntries(keys.map((k, i) => [k, values[i] ?? ''])) });
        }
        heartbeat();
      }
    }
    return rows;
  }

  async function reconciliationResult(run: FlowRun, stepId: string): Promise<ReconcileResult> {
    const execution = succeededExecution(run, stepId);
    if (!execution) throw ApplicationFailure.nonRetryable(`Step '${stepId}' has not succeeded in this run`, 'InvalidFlow');
    const key = stepObjectKey(run.workspaceId, run.id, stepId, execution.attempt, 'reconciliation.json');
    return JSON.parse((await storage.getBuffer(key)).toString('utf8')) as ReconcileResult;
  }

  return {
    /** First activity of every attempt: records it and returns the plan (which steps to reuse). */
    async beginFlowAttempt(input: { runId: string; attempt: number; executionId: string; time: number }) {
      return permanently(() => beginAttempt(db, input));
    },

    async recordFlowStepStarted(input: StepRef & { time: number }): Promise<void> {
      await permanently(() => recordStepStarted(db, input));
    },

    async recordFlowStepFinished(input: StepRef & { status: 'succeeded' | 'failed'; error?: string | null; time: number }): Promise<void> {
      await permanently(() => recordStepFinished(db, input));
    },

    async recordFlowRunStatus(input: { runId: string; attempt: number; status: 'processing' | 'review'; message: string; time: number; stepId?: string; stepStatus?: StepStatus }): Promise<void> {
      await permanently(() => recordRunStatus(db, input));
    },

    async recordFlowRunEnd(input: { runId: string; attempt: number; status: 'completed' | 'failed'; message?: string; time: number }): Promise<void> {
      await permanently(() => recordRunEnd(db, input));
    },

    /** Review outcome (who, when, decision, comment) kept in the step's output. */
    async recordFlowReview(input: StepRef & { output: Record<string, unknown> }): Promise<void> {
      await permanently(() => recordStepOutput(db, input));
    },

    /**
     * Creates one extraction record per file of the step's file field (flowRunId set, per-field
     * metadata and guidance) and returns their ids for the child workflows.
     */
    async prepareExtractionStep({ runId, attempt, stepId }: StepRef): Promise<{ workspaceId: string; templateId: string; extractionIds: string[] }> {
      const run = await load(runId);
      const step = stepOf(run, stepId);
      const config = step.config as unknown as ExtractionConfig;
      const template = await workspaceTemplate(db, run.workspaceId, config.template_id);
      if (!template) {
        throw ApplicationFailure.nonRetryable(
          `Step '${step.title}' failed: template '${config.template_id}' was not found (it may have been deleted)`,
          'TemplateNotFound',
        );
      }
      const files = ((run.inputFiles as unknown as Record<string, InputFileRecord[]>)[config.file_key] ?? []);
      const flowName = (run.flow as unknown as FlowSnapshot).name;
      const entries: ExtractionOutputEntry[] = [];
      for (const file of files) {
        const id = stepExtractionId(runId, attempt, stepId, file.index);
        if (!(await prisma.extraction.findUnique({ where: { id }, select: { id: true } }))) {
          await createExtractionRecord(db, {
            id,
            workspaceId: run.workspaceId,
            template,
            name: `${run.name ?? flowName} · ${step.title}`,
            guidance: file.guidance,
            metadata: file.metadata,
            fileName: file.file_name,
            fileSize: file.file_size,
            fileType: { key: file.file_type.key as FileKind, extension: file.file_type.extension, mimeType: file.file_type.mime_type },
            objectKey: file.object_key,
            flowRunId: runId,
          });
        }
        entries.push({ extraction_id: id, file_key: config.file_key, file_index: file.index, file_name: file.file_name });
      }
      await recordStepOutput(db, { runId, attempt, stepId, output: { template_id: template.id, file_key: config.file_key, extractions: entries } });
      return { workspaceId: run.workspaceId, templateId: template.id, extractionIds: entries.map((e) => e.extraction_id) };
    },

    /** After the child extractions: their outcome and table counts in the step's output. */
    async finishExtractionStep({ runId, attempt, stepId }: StepRef): Promise<void> {
      const run = await load(runId);
      const execution = (run.steps as unknown as { step_id: string; attempt: number; output: { extractions?: ExtractionOutputEntry[] } | null }[])
        .find((e) => e.step_id === stepId && e.attempt === attempt);
      const entries = execution?.output?.extractions ?? [];
      const records = await prisma.extraction.findMany({ where: { id: { in: entries.map((e) => e.extraction_id) } } });
      const extractions = entries.map((entry) => {
        const r = records.find((x) => x.id === entry.extraction_id);
        const stats = (r?.stats as { tables?: Record<string, { rows: { valid: number; invalid: number; total: number } }> } | null)?.tables ?? {};
        return {
          ...entry,
          status: r?.status ?? 'failed',
          ...(r?.error ? { error: r.error } : {}),
          tables: Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, v.rows])),
        };
      });
      await recordStepOutput(db, { runId, attempt, stepId, output: { extractions } });
    },

    /** Matches two earlier steps' tables; the full result goes to S3, a preview to the step. */
    async reconcileStep({ runId, attempt, stepId }: StepRef): Promise<{ summary: ReconcileResult['summary'] }> {
      return permanently(async () => {
        const run = await load(runId);
        const c = configOf<ReconciliationConfig>(run, stepId);
        const side1 = await sideRows(run, c.source_step_id_1, c.table_key_1);
        const side2 = await sideRows(run, c.source_step_id_2, c.table_key_2);
        const result = reconcile(side1, side2, { matchOn: c.match_on, compare: c.compare, tolerance: c.tolerance });
        heartbeat();
        await storage.putBuffer(stepObjectKey(run.workspaceId, runId, stepId, attempt, 'reconciliation.json'), Buffer.from(JSON.stringify(result)), 'application/json');
        await recordStepOutput(db, {
          runId, attempt, stepId,
          output: {
            source_1: { step_id: c.source_step_id_1, table_key: c.table_key_1, rows: side1.length },
            source_2: { step_id: c.source_step_id_2, table_key: c.table_key_2, rows: side2.length },
            match_on: c.match_on,
            compare: c.compare,
            tolerance: c.tolerance,
            ...reconcilePreview(result, PREVIEW_ROWS),
          },
        });
        return { summary: result.summary };
      });
    },

    /** Judges the step's rules; a failed rule fails the step with a message naming it. */
    async verifyStep({ runId, attempt, stepId }: StepRef): Promise<{ passed: number }> {
      return permanently(async () => {
        const run = await load(runId);
        const { rules } = configOf<VerifyConfig>(run, stepId);
        const factsByRule: RuleFacts[] = [];
        for (const rule of rules) factsByRule.push(await factsFor(run, rule));
        const { results, failure } = checkRules(rules, (rule) => factsByRule[rules.indexOf(rule)]!);
        await recordStepOutput(db, { runId, attempt, stepId, output: { rules: results } });
        if (failure) throw ApplicationFailure.nonRetryable(failure, 'VerifyFailed');
        return { passed: results.length };
      });
    },

    /** Writes the tables of earlier steps to one XLSX workbook in S3 and lists it in drive_files. */
    async exportStep({ runId, attempt, stepId }: StepRef): Promise<{ fileId: string }> {
      return permanently(async () => {
        const run = await load(runId);
        const snapshot = run.flow as unknown as FlowSnapshot;
        const step = stepOf(run, stepId);
        const config = step.config as unknown as ExportConfig;
        const sheets: SheetSource[] = [];
        for (const sourceId of config.step_ids) {
          const source = stepOf(run, sourceId);
          if (source.type === 'extraction') sheets.push(...(await extractionSheets(run, source)));
          else sheets.push(reconciliationSheet(source, await reconciliationResult(run, sourceId), run));
        }
        // A workbook needs a sheet; sources without tables (e.g. an optional field left out) give none.
        if (sheets.length === 0) sheets.push({ title: 'No data', header: ['The exported steps produced no tables'], rows: async function* () {} });
        const fileId = derivedId('file', runId, stepId, attempt);
        const objectKey = exportObjectKey(run.workspaceId, runId, fileId);
        const body = new PassThrough();
        const upload = storage.putStream(objectKey, body, XLSX_MIME);
        let written;
        try {
          written = await writeWorkbook(sheets, body, () => heartbeat());
        } catch (error) {
          body.destroy(error as Error);
          await upload.catch(() => {});
          throw error;
        }
        await upload;
        const size = (await storage.stat(objectKey))?.size ?? 0;
        const fileName = config.file_name ?? `${slug(snapshot.name)}-${runId}.xlsx`;
        const drive = { file_id: fileId, mime_type: XLSX_MIME, file_name: fileName, sheets: written.map((s) => ({ sheet_id: s.sheet_id, title: s.title })) };
        await mutateRun(db, runId, (r) => ({ data: { driveFiles: { ...((r.driveFiles as Record<string, object>) ?? {}), [stepId]: drive } as object }, result: undefined }));
        await recordStepOutput(db, { runId, attempt, stepId, output: { ...drive, size, sheets: written } });
        return { fileId };
      });
    },
  };

  async function factsFor(run: FlowRun, rule: VerifyRule): Promise<RuleFacts> {
    const source = stepOf(run, rule.step_id);
    if (source.type === 'reconciliation') {
      const execution = succeededExecution(run, rule.step_id);
      const summary = (execution?.output?.summary ?? {}) as Record<string, number>;
      return { reconciliation: { matched: summary.matched ?? 0, mismatched: summary.mismatched ?? 0, unmatched_1: summary.unmatched_1 ?? 0, unmatched_2: summary.unmatched_2 ?? 0 } };
    }
    const extractions: ExtractionFacts[] = [];
    for (const e of await stepExtractions(run, rule.step_id)) {
      const stored = await storedTable(e.id, rule.table_key!);
      const facts: ExtractionFacts = { extraction_id: e.id, file_name: e.fileName, rows_total: stored?.rowCount ?? 0, rows_valid: stored?.maskCounts[0] ?? 0 };
      if (rule.type === 'sum_equals_field') {
        const position = tableOfExtraction(e, rule.table_key!)?.columns.findIndex((c) => c.key === rule.column) ?? -1;
        let sum = 0;
        let nonNumeric = 0;
        for await (const batch of tableBatches(e, rule.table_key!)) {
          for (const values of batch) {
            const cell = values[position] ?? '';
            const n = cell.trim() ? numericValue(cell) : 0;
            if (n === null) nonNumeric++;
            else sum += n;
          }
          heartbeat();
        }
        facts.column_sum = sum;
        facts.non_numeric_cells = nonNumeric;
        facts.field_value = (e.fields as { values?: Record<string, string> } | null)?.values?.[rule.field!] ?? '';
      }
      extractions.push(facts);
    }
    return { extractions };
  }

  async function extractionSheets(run: FlowRun, step: FlowStep): Promise<SheetSource[]> {
    const extractions = await stepExtractions(run, step.id);
    const template = (extractions[0]?.template as unknown as TemplateSnapshot | undefined) ?? null;
    const several = extractions.length > 1;
    return (template?.tables ?? []).map((table) => ({
      title: `${step.title} - ${table.name}`,
      header: [...(several ? ['File'] : []), ...table.columns.map((c) => c.name)],
      rows: async function* () {
        for (const e of extractions) {
          const keys = tableOfExtraction(e, table.key)?.columns.map((c) => c.key) ?? [];
          const positions = table.columns.map((c) => keys.indexOf(c.key));
          for await (const batch of tableBatches(e, table.key)) {
            yield batch.map((values) => [...(several ? [e.fileName] : []), ...positions.map((p) => (p >= 0 ? (values[p] ?? '') : ''))]);
          }
        }
      },
    }));
  }

  function reconciliationSheet(step: FlowStep, result: ReconcileResult, _run: FlowRun): SheetSource {
    const c = step.config as unknown as ReconciliationConfig;
    const keyHeader = c.match_on.map((m) => (m.column_1 === m.column_2 ? m.column_1 : `${m.column_1} / ${m.column_2}`));
    const compareHeader = c.compare.flatMap((p) => [`${p.column_1} (1)`, `${p.column_2} (2)`]);
    const line = (kind: string, r1: SourceRow | null, r2: SourceRow | null, differences: string) => [
      kind,
      ...c.match_on.map((m) => r1?.values[m.column_1] ?? r2?.values[m.column_2] ?? ''),
      ...c.compare.flatMap((p) => [r1?.values[p.column_1] ?? '', r2?.values[p.column_2] ?? '']),
      r1 ? `${r1.file_name}#${r1.index + 1}` : '',
      r2 ? `${r2.file_name}#${r2.index + 1}` : '',
      differences,
    ];
    return {
      title: step.title,
      header: ['Result', ...keyHeader, ...compareHeader, 'Row (1)', 'Row (2)', 'Differences'],
      rows: async function* () {
        yield result.matched.map((m) => line('matched', m.row_1, m.row_2, ''));
        yield result.mismatched.map((m) => line('mismatched', m.row_1, m.row_2, m.differences.map((d) => `${d.column_1}: ${d.value_1} ≠ ${d.value_2}`).join('; ')));
        yield result.unmatched_1.map((r) => line('unmatched_1', r, null, ''));
        yield result.unmatched_2.map((r) => line('unmatched_2', null, r, ''));
      },
    };
  }
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'flow';
}

export type FlowActivities = ReturnType<typeof createFlowActivities>;

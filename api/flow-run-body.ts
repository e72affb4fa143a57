// The spec's flow-run shapes (2.6): the base form (run, lists, webhooks) and the detail form
// (get-by-id), built from the Postgres projection the workflow keeps.
import { z } from '@hono/zod-openapi';
import type { FlowRun } from '../generated/prisma/index.js';
import type { FlowAttempt, InputFileRecord, StepExecution } from '../lib/flow-runs.js';
import type { FlowSnapshot } from '../lib/flows.js';
import { unixSeconds } from '../lib/ids.js';
import type { StatusEntry } from '../lib/status.js';
import { MetadataSchema, StatusEntrySchema } from './schemas.js';

const RunStatusSchema = z.enum(['processing', 'review', 'completed', 'failed']);

export const DriveFileSchema = z
  .object({
    file_id: z.string(),
    mime_type: z.string(),
    file_name: z.string(),
    sheets: z.array(z.object({ sheet_id: z.number().int(), title: z.string() })),
  })
  .openapi('DriveFile');

export const FlowRunSchema = z
  .object({
    id: z.string(),
    flow_id: z.string(),
    workspace_id: z.string(),
    name: z.string().nullable(),
    status: RunStatusSchema,
    status_history: z.array(StatusEntrySchema),
    error: z.string().nullable(),
    metadata: MetadataSchema,
    trigger_method: z.enum(['api', 'manual']),
    start_time: z.number().int(),
    end_time: z.number().int().nullable(),
    duration: z.number().int().openapi({ description: 'Milliseconds; 0 while processing' }),
    drive_files: z.record(z.string(), DriveFileSchema).openapi({ description: 'Workbooks written by export steps, by step id; {} without one' }),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi('FlowRun');

const StepExecutionSchema = z
  .object({
    step_id: z.string(),
    title: z.string(),
    type: z.string(),
    attempt: z.number().int(),
    status: z.enum(['running', 'waiting_review', 'succeeded', 'failed']),
    started_at: z.number().int(),
    ended_at: z.number().int().nullable(),
    duration: z.number().int().openapi({ description: 'Milliseconds' }),
    output: z.record(z.string(), z.unknown()).nullable().openapi({
      description:
        'extraction: {template_id, file_key, extractions: [{extraction_id, file_name, status, tables}]}; reconciliation: {source_1, source_2, match_on, compare, tolerance, summary, matched, mismatched, unmatched_1, unmatched_2, truncated}; ' +
        'review: {decision, comment, reviewer, requested_at, decided_at, timed_out}; verify: {rules: [{rule, type, description, passed, message}]}; export: {file_id, file_name, mime_type, size, sheets}',
    }),
    error: z.string().nullable(),
  })
  .openapi('FlowStepExecution');

const AttemptStepSchema = z.object({
  step_id: z.string(),
  title: z.string(),
  type: z.string(),
  status: z.enum(['running', 'waiting_review', 'succeeded', 'failed', 'reused']),
  started_at: z.number().int().nullable(),
  ended_at: z.number().int().nullable(),
  duration: z.number().int(),
  error: z.string().nullable(),
  reused_from_attempt: z.number().int().optional(),
});

const FlowAttemptSchema = z
  .object({
    attempt: z.number().int(),
    trigger: z.enum(['api', 'manual', 'rerun']),
    status: RunStatusSchema,
    start_time: z.number().int(),
    end_time: z.number().int().nullable(),
    duration: z.number().int(),
    error: z.string().nullable(),
    workflow_run_id: z.string().nullable().openapi({ description: 'The Temporal execution that carried the attempt (workflow id flow-run-<id>)' }),
    steps: z.array(AttemptStepSchema),
  })
  .openapi('FlowAttempt');

const InputFileSchema = z
  .object({
    index: z.number().int(),
    part: z.string(),
    file_name: z.string(),
    file_size: z.number().int(),
    file_type: z.object({ key: z.string(), extension: z.string(), mime_type: z.string() }),
    metadata: z.union([MetadataSchema, z.null()]),
    guidance: z.string().nullable(),
  })
  .openapi('FlowRunInputFile');

export const FlowRunDetailSchema = FlowRunSchema.extend({
  flow: z.object({
    id: z.string(),
    workspace_id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    steps: z.array(z.object({ id: z.string(), title: z.string(), type: z.string(), order: z.number(), description: z.string().optional(), config: z.record(z.string(), z.unknown()) })),
    active: z.boolean(),
  }),
  flow_attempts: z.array(FlowAttemptSchema),
  current_attempt: z.number().int(),
  input_files: z.record(z.string(), z.array(InputFileSchema)),
  steps: z.array(StepExecutionSchema),
}).openapi('FlowRunDetail');

type DriveFile = z.infer<typeof DriveFileSchema>;

/** The columns the base form needs: lists read only these (steps and snapshots can be large). */
export const RUN_BASE_COLUMNS = {
  id: true, flowId: true, workspaceId: true, name: true, status: true, statusHistory: true, error: true, metadata: true,
  triggerMethod: true, startTime: true, endTime: true, durationMs: true, driveFiles: true, createdAt: true, updatedAt: true,
} as const;
type RunBaseRecord = Pick<FlowRun, keyof typeof RUN_BASE_COLUMNS>;

export function runBase(run: RunBaseRecord): z.infer<typeof FlowRunSchema> {
  const drive = (run.driveFiles as Record<string, DriveFile> | null) ?? {};
  return {
    id: run.id,
    flow_id: run.flowId,
    workspace_id: run.workspaceId,
    name: run.name,
    status: run.status as z.infer<typeof RunStatusSchema>,
    status_history: run.statusHistory as unknown as StatusEntry[],
    error: run.error ?? null,
    metadata: (run.metadata as Record<string, unknown> | null) ?? {},
    trigger_method: run.triggerMethod as 'api' | 'manual',
    start_time: unixSeconds(run.startTime),
    end_time: run.endTime ? unixSeconds(run.endTime) : null,
    duration: run.durationMs,
    drive_files: Object.fromEntries(Object.entries(drive).map(([k, f]) => [k, { file_id: f.file_id, mime_type: f.mime_type, file_name: f.file_name, sheets: f.sheets }])),
    created_at: unixSeconds(run.createdAt),
    updated_at: unixSeconds(run.updatedAt),
  };
}

export function runDetail(run: FlowRun): z.infer<typeof FlowRunDetailSchema> {
  const snapshot = run.flow as unknown as FlowSnapshot;
  const executions = run.steps as unknown as StepExecution[];
  const attempts = run.flowAttempts as unknown as FlowAttempt[];
  const inputFiles = (run.inputFiles as unknown as Record<string, InputFileRecord[]>) ?? {};
  const titleOf = (id: string) => snapshot.steps.find((s) => s.id === id);
  return {
    ...runBase(run),
    flow: {
      id: snapshot.id,
      workspace_id: snapshot.workspace_id,
      name: snapshot.name,
      description: snapshot.description ?? null,
      steps: snapshot.steps.map((s) => ({ id: s.id, title: s.title, type: s.type, order: s.order, ...(s.description ? { description: s.description } : {}), config: s.config })),
      active: snapshot.active,
    },
    flow_attempts: attempts.map((a) => ({
      attempt: a.attempt,
      trigger: a.trigger,
      status: a.status,
      start_time: a.start_time,
      end_time: a.end_time,
      duration: a.duration,
      error: a.error,
      workflow_run_id: a.execution_id,
      steps: [
        ...a.reused_steps.map((r) => ({
          step_id: r.step_id, title: titleOf(r.step_id)?.title ?? r.step_id, type: titleOf(r.step_id)?.type ?? '', status: 'reused' as const,
          started_at: null, ended_at: null, duration: 0, error: null, reused_from_attempt: r.from_attempt,
        })),
        ...executions.filter((e) => e.attempt === a.attempt).map((e) => ({
          step_id: e.step_id, title: e.title, type: e.type, status: e.status, started_at: e.started_at, ended_at: e.ended_at, duration: e.duration, error: e.error,
        })),
      ],
    })),
    current_attempt: run.currentAttempt,
    input_files: Object.fromEntries(Object.entries(inputFiles).map(([key, files]) => [key, files.map((f) => ({
      index: f.index, part: f.part, file_name: f.file_name, file_size: f.file_size, file_type: f.file_type, metadata: f.metadata, guidance: f.guidance,
    }))])),
    steps: executions.map((e) => ({
      step_id: e.step_id, title: e.title, type: e.type, attempt: e.attempt, status: e.status,
      started_at: e.started_at, ended_at: e.ended_at, duration: e.duration, output: e.output, error: e.error,
    })),
  };
}

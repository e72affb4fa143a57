// Flow runs: starting one (API and CLI share this), rerunning one, and the Postgres projection
// of a run that the workflow's activities keep in step (status, history, attempts, steps).
// Temporal decides what happens; this module only records it and starts executions.
import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { TypedSearchAttributes, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { FlowRun } from '../generated/prisma/index.js';
import { FlowAttr, KindAttr, StatusAttr, WorkspaceAttr } from '../workflows/search-attributes.js';
import type { flowRunWorkflow } from '../workflows/flow-run.js';
import type { Database, Prisma } from './db.js';
import { parseMetadata } from './extractions.js';
import { RunInputError, type FileField, type FlowDefinition, type FlowSnapshot, type FlowStep, type RunInputFile } from './flows.js';
import { unixSeconds } from './ids.js';
import { statusEntry, type StatusEntry } from './status.js';
import { workflowIds } from './temporal.js';

export type RunStatus = 'processing' | 'review' | 'completed' | 'failed';
export const RUN_STATUSES: RunStatus[] = ['processing', 'review', 'completed', 'failed'];
export type TriggerMethod = 'api' | 'manual';
export type StepStatus = 'running' | 'waiting_review' | 'succeeded' | 'failed';

/** An input file as the run keeps it (spec 2.6 `input_files.<key>[]`). */
export interface InputFileRecord extends RunInputFile {
  metadata: Record<string, unknown> | null;
  guidance: string | null;
}

/** One execution of one step in one attempt (spec 2.6 `steps[]`). */
export interface StepExecution {
  step_id: string;
  title: string;
  type: string;
  attempt: number;
  status: StepStatus;
  started_at: number;
  ended_at: number | null;
  duration: number;
  output: Record<string, unknown> | null;
  error: string | null;
  /** internal: start in ms, and the step definition it ran with (reruns reuse only unchanged steps) */
  start_ms: number;
  definition: string;
}

/** One attempt of the run (spec 2.6 `flow_attempts[]`); its step details are joined on output. */
export interface FlowAttempt {
  attempt: number;
  /** the Temporal run id of the execution that carried the attempt */
  execution_id: string | null;
  trigger: TriggerMethod | 'rerun';
  status: RunStatus;
  start_time: number;
  end_time: number | null;
  duration: number;
  error: string | null;
  reused_steps: { step_id: string; from_attempt: number }[];
  start_ms: number;
}

/** Adds each field's `<key>_metadata` and `<key>_guidance` parts to its files. */
export function inputFileRecords(fields: FileField[], grouped: Record<string, RunInputFile[]>, text: Record<string, string | undefined>): Record<string, InputFileRecord[]> {
  const out: Record<string, InputFileRecord[]> = {};
  for (const field of fields) {
    const files = grouped[field.key];
    if (!files) continue;
    const metadata = parseMetadata(text[`${field.key}_metadata`], `${field.key}_metadata`);
    if (metadata instanceof Error) throw new RunInputError(metadata.message);
    const guidance = text[`${field.key}_guidance`]?.trim() || null;
    out[field.key] = files.map((f) => ({ ...f, metadata, guidance }));
  }
  return out;
}

export interface FlowRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  fileInputConfig: unknown;
  steps: unknown;
  active: boolean;
  updatedAt: Date;
}

export function flowSnapshot(flow: FlowRecord): FlowSnapshot {
  return {
    id: flow.id,
    workspace_id: flow.workspaceId,
    name: flow.name,
    description: flow.description,
    active: flow.active,
    file_input_config: flow.fileInputConfig as FlowDefinition['file_input_config'],
    steps: flow.steps as FlowStep[],
    updated_at: unixSeconds(flow.updatedAt),
  };
}

export const stepDefinition = (step: FlowStep) => JSON.stringify({ type: step.type, config: step.config });

/** An id derived from its parts (same alphabet as lib/ids), so a retried activity finds what it made. */
export function derivedId(prefix: 'ext' | 'file', ...parts: (string | number)[]): string {
  const digest = createHash('sha256').update(parts.join(':')).digest();
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let out = '';
  for (let i = 0; i < 24; i++) out += alphabet[digest[i]! & 31];
  return `${prefix}_${out}`;
}

/** The extraction of one file of an extraction step in one attempt. */
export const stepExtractionId = (runId: string, attempt: number, stepId: string, fileIndex: number) => derivedId('ext', runId, attempt, stepId, fileIndex);

export const exportObjectKey = (workspaceId: string, runId: string, fileId: string) => `flow-runs/${workspaceId}/${runId}/files/${fileId}.xlsx`;
export const stepObjectKey = (workspaceId: string, runId: string, stepId: string, attempt: number, name: string) =>
  `flow-runs/${workspaceId}/${runId}/steps/${stepId}/attempt-${attempt}/${name}`;

export class RunNotFoundError extends Error {}
/** The run is not in a state that allows the operation (API: 409). */
export class RunStateError extends Error {}
/** Temporal did not accept the execution (API: 503). */
export class RunStartError extends Error {}

const json = (v: unknown) => v as Prisma.InputJsonValue;

const attemptsOf = (run: FlowRun) => run.flowAttempts as unknown as FlowAttempt[];
const executionsOf = (run: FlowRun) => run.steps as unknown as StepExecution[];
const historyOf = (run: FlowRun) => run.statusHistory as unknown as StatusEntry[];
const seconds = (ms: number) => Math.floor(ms / 1000);

/** How long a rerun waits for the failed attempt's execution to finish closing. */
const RERUN_WAIT_MS = 15_000;

function searchAttributes(workspaceId: string, flowId: string) {
  return new TypedSearchAttributes([
    { key: WorkspaceAttr, value: workspaceId },
    { key: FlowAttr, value: flowId },
    { key: StatusAttr, value: 'processing' },
    { key: KindAttr, value: 'flow_run' },
  ]);
}

export interface StartDeps {
  db: Database;
  temporal: Client;
  taskQueue: string;
}

export interface NewRun {
  runId: string;
  flow: FlowRecord;
  inputFiles: Record<string, InputFileRecord[]>;
  metadata: Record<string, unknown> | null;
  name: string | null;
  triggerMethod: TriggerMethod;
}

/** Records the run (status processing) and starts its workflow; removes the record if Temporal refuses. */
export async function startFlowRun({ db, temporal, taskQueue }: StartDeps, input: NewRun): Promise<FlowRun> {
  const now = new Date();
  const attempt: FlowAttempt = {
    attempt: 1, execution_id: null, trigger: input.triggerMethod, status: 'processing',
    start_time: unixSeconds(now), end_time: null, duration: 0, error: null, reused_steps: [], start_ms: now.getTime(),
  };
  const run = await db.prisma.flowRun.create({
    data: {
      id: input.runId,
      flowId: input.flow.id,
      workspaceId: input.flow.workspaceId,
      name: input.name,
      status: 'processing',
      statusHistory: json([statusEntry('processing', `Flow started via ${input.triggerMethod}`, now)]),
      metadata: input.metadata ? json(input.metadata) : undefined,
      triggerMethod: input.triggerMethod,
      startTime: now,
      flow: json(flowSnapshot(input.flow)),
      currentAttempt: 1,
      flowAttempts: json([attempt]),
      inputFiles: json(input.inputFiles),
      steps: json([]),
      createdAt: now,
      updatedAt: now,
    },
  });
  try {
    await temporal.workflow.start<typeof flowRunWorkflow>('flowRunWorkflow', {
      workflowId: workflowIds.flowRun(input.runId),
      taskQueue,
      args: [{ runId: input.runId, attempt: 1 }],
      typedSearchAttributes: searchAttributes(input.flow.workspaceId, input.flow.id),
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    await db.prisma.flowRun.delete({ where: { id: input.runId } }).catch(() => {});
    throw new RunStartError(`The flow run could not be started: ${(error as Error).message}`);
  }
  return run;
}

/**
 * Starts the next attempt of a failed run: a new execution under the same workflow id. Temporal
 * guards it: the id may be reused only when the previous execution failed, and only one
 * execution per id runs at a time, so two rerun requests at once start one attempt.
 */
export async function rerunFlowRun({ db, temporal, taskQueue }: StartDeps, run: FlowRun): Promise<FlowRun> {
  if (run.status !== 'failed') throw new RunStateError(`Flow run is ${run.status}; only a failed run can be rerun`);
  const attempt = run.currentAttempt + 1;
  const workflowId = workflowIds.flowRun(run.id);
  const start = () =>
    temporal.workflow.start<typeof flowRunWorkflow>('flowRunWorkflow', {
      workflowId,
      taskQueue,
      args: [{ runId: run.id, attempt }],
      typedSearchAttributes: searchAttributes(run.workspaceId, run.flowId),
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      workflowIdConflictPolicy: 'FAIL',
    });
  let executionId: string;
  try {
    try {
      executionId = (await start()).firstExecutionRunId;
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      // The failed attempt's execution may still be finishing (its failure webhook goes out after
      // the run reads failed). Wait briefly for that execution — not for another rerun — to close.
      const failedExecution = attemptsOf(run).find((a) => a.attempt === run.currentAttempt)?.execution_id;
      const running = await temporal.workflow.getHandle(workflowId).describe();
      if (!failedExecution || running.runId !== failedExecution) throw error;
      await Promise.race([temporal.workflow.getHandle(workflowId, running.runId).result().catch(() => {}), new Promise((r) => setTimeout(r, RERUN_WAIT_MS))]);
      executionId = (await start()).firstExecutionRunId;
    }
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      throw new RunStateError('Flow run is already being rerun');
    }
    throw new RunStartError(`The rerun could not be started: ${(error as Error).message}`);
  }
  // The workflow's first activity records the attempt too; whichever comes first writes it.
  await beginAttempt(db, { runId: run.id, attempt, executionId, time: Date.now() }).catch(() => {});
  return (await db.prisma.flowRun.findUnique({ where: { id: run.id } }))!;
}

/** Reads the run under a row lock, applies `fn`'s update, in one transaction. */
export async function mutateRun<T>(db: Database, runId: string, fn: (run: FlowRun) => { data?: Prisma.FlowRunUpdateInput; result: T }): Promise<T> {
  return db.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM flow_runs WHERE id = ${runId} FOR UPDATE`;
    const run = await tx.flowRun.findUnique({ where: { id: runId } });
    if (!run) throw new RunNotFoundError(`Flow run ${runId} does not exist`);
    const { data, result } = fn(run);
    if (data) await tx.flowRun.update({ where: { id: runId }, data: { ...data, updatedAt: new Date() } });
    return result;
  });
}


export interface PlanStep {
  id: string;
  title: string;
  type: FlowStep['type'];
  config: Record<string, unknown>;
}

export interface AttemptPlan {
  attempt: number;
  workspaceId: string;
  flowId: string;
  steps: PlanStep[];
  /** steps that succeeded in an earlier attempt with the same definition: not executed again */
  reused: string[];
}

/**
 * Records the start of an attempt (idempotent per execution) and returns its plan. A rerun takes
 * the flow's current definition when the flow still exists (so a fixed flow — e.g. a step
 * pointed at a new template — is what runs), else the run's snapshot. The leading steps that
 * succeeded before with an unchanged definition are reused.
 */
export async function beginAttempt(db: Database, input: { runId: string; attempt: number; executionId: string; time: number }): Promise<AttemptPlan> {
  const current = input.attempt > 1 ? await db.prisma.flow.findFirst({ where: { id: (await db.prisma.flowRun.findUnique({ where: { id: input.runId }, select: { flowId: true } }))?.flowId ?? '', deletedAt: null } }) : null;
  return mutateRun(db, input.runId, (run) => {
    const attempts = attemptsOf(run).map((a) => ({ ...a }));
    let attempt = input.attempt;
    let entry = attempts.find((a) => a.attempt === attempt);
    if (entry?.execution_id && entry.execution_id !== input.executionId) {
      // A stale rerun request started a second execution for a number already used.
      attempt = Math.max(...attempts.map((a) => a.attempt)) + 1;
      entry = attempts.find((a) => a.attempt === attempt);
    }
    const executions = executionsOf(run);
    let snapshot = run.flow as unknown as FlowSnapshot;
    const data: Prisma.FlowRunUpdateInput = {};
    if (!entry) {
      if (current) {
        snapshot = flowSnapshot(current);
        data.flow = json(snapshot);
      }
      const reused = reusableSteps(snapshot.steps, executions, attempt);
      entry = {
        attempt, execution_id: input.executionId, trigger: 'rerun', status: 'processing', start_time: seconds(input.time),
        end_time: null, duration: 0, error: null, reused_steps: reused, start_ms: input.time,
      };
      attempts.push(entry);
      Object.assign(data, {
        status: 'processing',
        error: null,
        endTime: null,
        durationMs: 0,
        currentAttempt: attempt,
        statusHistory: json([...historyOf(run), statusEntry('processing', `Rerun started (attempt ${attempt})`, new Date(input.time))]),
        flowAttempts: json(attempts),
      });
    } else if (!entry.execution_id) {
      entry.execution_id = input.executionId;
      data.flowAttempts = json(attempts);
    }
    const plan: AttemptPlan = {
      attempt,
      workspaceId: run.workspaceId,
      flowId: run.flowId,
      steps: snapshot.steps.map((s) => ({ id: s.id, title: s.title, type: s.type, config: s.type === 'review' ? s.config : {} })),
      reused: entry.reused_steps.map((r) => r.step_id),
    };
    return { data: Object.keys(data).length ? data : undefined, result: plan };
  });
}

/** The leading steps whose latest execution before `attempt` succeeded with the same definition. */
export function reusableSteps(steps: FlowStep[], executions: StepExecution[], attempt: number): { step_id: string; from_attempt: number }[] {
  const out: { step_id: string; from_attempt: number }[] = [];
  for (const step of steps) {
    const last = executions.filter((e) => e.step_id === step.id && e.attempt < attempt).sort((a, b) => b.attempt - a.attempt)[0];
    if (!last || last.status !== 'succeeded' || last.definition !== stepDefinition(step)) break;
    out.push({ step_id: step.id, from_attempt: last.attempt });
  }
  return out;
}

/** The step as the run's current snapshot has it. */
export function stepOf(run: FlowRun, stepId: string): FlowStep {
  const step = (run.flow as unknown as FlowSnapshot).steps.find((s) => s.id === stepId);
  if (!step) throw new RunNotFoundError(`Step ${stepId} is not part of flow run ${run.id}`);
  return step;
}

/** The latest succeeded execution of a step (this attempt's or a reused earlier one). */
export function succeededExecution(run: FlowRun, stepId: string): StepExecution | undefined {
  return executionsOf(run)
    .filter((e) => e.step_id === stepId && e.status === 'succeeded')
    .sort((a, b) => b.attempt - a.attempt)[0];
}

export async function recordStepStarted(db: Database, input: { runId: string; attempt: number; stepId: string; time: number }): Promise<void> {
  await mutateRun(db, input.runId, (run) => {
    const executions = executionsOf(run);
    if (executions.some((e) => e.step_id === input.stepId && e.attempt === input.attempt)) return { result: undefined };
    const step = stepOf(run, input.stepId);
    const execution: StepExecution = {
      step_id: step.id, title: step.title, type: step.type, attempt: input.attempt, status: 'running',
      started_at: seconds(input.time), ended_at: null, duration: 0, output: null, error: null,
      start_ms: input.time, definition: stepDefinition(step),
    };
    return { data: { steps: json([...executions, execution]) }, result: undefined };
  });
}

function updateExecution(run: FlowRun, stepId: string, attempt: number, change: (e: StepExecution) => StepExecution): Prisma.FlowRunUpdateInput {
  const executions = executionsOf(run).map((e) => (e.step_id === stepId && e.attempt === attempt ? change(e) : e));
  return { steps: json(executions) };
}

export async function recordStepOutput(db: Database, input: { runId: string; attempt: number; stepId: string; output: Record<string, unknown> }): Promise<void> {
  await mutateRun(db, input.runId, (run) => ({ data: updateExecution(run, input.stepId, input.attempt, (e) => ({ ...e, output: { ...(e.output ?? {}), ...input.output } })), result: undefined }));
}

export async function recordStepFinished(db: Database, input: { runId: string; attempt: number; stepId: string; status: 'succeeded' | 'failed'; error?: string | null; time: number }): Promise<void> {
  await mutateRun(db, input.runId, (run) => ({
    data: updateExecution(run, input.stepId, input.attempt, (e) => ({
      ...e, status: input.status, error: input.error ?? null, ended_at: seconds(input.time), duration: Math.max(0, input.time - e.start_ms),
    })),
    result: undefined,
  }));
}

/** A status change inside an attempt (into review and back); skipped when already recorded. */
export async function recordRunStatus(db: Database, input: { runId: string; attempt: number; status: 'processing' | 'review'; message: string; time: number; stepId?: string; stepStatus?: StepStatus }): Promise<void> {
  await mutateRun(db, input.runId, (run) => {
    const history = historyOf(run);
    const last = history[history.length - 1];
    if (run.status === input.status && last?.message === input.message) return { result: undefined };
    const data: Prisma.FlowRunUpdateInput = {
      status: input.status,
      statusHistory: json([...history, statusEntry(input.status, input.message, new Date(input.time))]),
      flowAttempts: json(attemptsOf(run).map((a) => (a.attempt === input.attempt ? { ...a, status: input.status } : a))),
    };
    if (input.stepId && input.stepStatus) Object.assign(data, updateExecution(run, input.stepId, input.attempt, (e) => ({ ...e, status: input.stepStatus! })));
    return { data, result: undefined };
  });
}

/** The end of an attempt: completed, or failed with the message in `error` and the history entry. */
export async function recordRunEnd(db: Database, input: { runId: string; attempt: number; status: 'completed' | 'failed'; message?: string; time: number }): Promise<void> {
  await mutateRun(db, input.runId, (run) => {
    const attempts = attemptsOf(run);
    const entry = attempts.find((a) => a.attempt === input.attempt);
    if (entry && entry.status === input.status && run.status === input.status) return { result: undefined };
    const end = new Date(input.time);
    const error = input.status === 'failed' ? (input.message ?? 'The flow run failed') : null;
    return {
      data: {
        status: input.status,
        error,
        endTime: end,
        durationMs: Math.max(0, input.time - run.startTime.getTime()),
        statusHistory: json([...historyOf(run), statusEntry(input.status, error ?? 'Flow completed', end)]),
        flowAttempts: json(attempts.map((a) => (a.attempt === input.attempt
          ? { ...a, status: input.status, error, end_time: seconds(input.time), duration: Math.max(0, input.time - a.start_ms) }
          : a))),
      },
      result: undefined,
    };
  });
}

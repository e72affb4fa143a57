// One attempt of a flow run. The workflow decides every transition — steps in order, the review
// pause, failure, completion — and its activities keep the Postgres projection (flow_runs) in
// step, so the API and the Temporal Web UI tell the same story.
//
// Reruns: a failed attempt ends the execution failed (the Web UI shows it failed). A rerun is a
// new execution under the same workflow id (`flow-run-<runId>`, allowed only after a failure:
// WorkflowIdReusePolicy ALLOW_DUPLICATE_FAILED_ONLY) with input {runId, attempt: n + 1}; its
// first activity records the attempt and returns the steps that already succeeded, which are
// not executed again. Each attempt's history is its own execution, which keeps histories small.
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  defineQuery,
  defineUpdate,
  executeChild,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { FlowActivities } from '../activities/flows.js';
import type { PlanStep } from '../lib/flow-runs.js';
import { extractionWorkflow } from './extraction.js';
import { failureMessage } from './failure.js';
import { notifyFlowRun } from './notify.js';
import { KindAttr, StatusAttr, TemplateAttr, WorkspaceAttr } from './search-attributes.js';
import { BOOKKEEPING_TIMEOUT } from './timeouts.js';

export interface FlowRunInput {
  runId: string;
  /** 1 for the first execution, n + 1 for the rerun of attempt n */
  attempt: number;
}

export interface ReviewInput {
  decision: 'approve' | 'reject';
  comment?: string | null;
  /** who decided: the caller's workspace and API key (recorded in the step) */
  reviewer: { workspace_id: string; api_key_id: string | null };
}

export interface ReviewAccepted {
  step_id: string;
  decision: 'approve' | 'reject';
}

export interface FlowRunState {
  attempt: number;
  status: 'processing' | 'review' | 'completed' | 'failed';
  current_step: string | null;
  waiting_for_review: string | null;
}

/** The review decision. Its validator refuses it unless the run waits for review; it returns once recorded. */
export const reviewUpdate = defineUpdate<ReviewAccepted, [ReviewInput]>('review');
/** Where the run is, for operators (`temporal workflow query --type state`). */
export const stateQuery = defineQuery<FlowRunState>('state');

const bookkeeping = proxyActivities<FlowActivities>({
  startToCloseTimeout: BOOKKEEPING_TIMEOUT,
  retry: { initialInterval: '1s', maximumInterval: '30s', backoffCoefficient: 2, nonRetryableErrorTypes: ['NotFound', 'TemplateNotFound', 'InvalidFlow'] },
});

// Step work heartbeats every batch of rows; a lost worker is noticed within the heartbeat timeout.
const stepWork = proxyActivities<FlowActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '2s', maximumInterval: '1 minute', maximumAttempts: 5, nonRetryableErrorTypes: ['NotFound', 'VerifyFailed', 'InvalidFlow'] },
});

type ReviewConfig = { timeout_seconds?: number; on_timeout?: 'reject' | 'approve'; instructions?: string };

export async function flowRunWorkflow(input: FlowRunInput): Promise<{ runId: string; attempt: number; status: 'completed' }> {
  const { runId } = input;
  const state: FlowRunState = { attempt: input.attempt, status: 'processing', current_step: null, waiting_for_review: null };
  let decision: (ReviewInput & { decided_at: number }) | undefined;
  const reviewed = new Set<string>();
  let ended = false;

  setHandler(stateQuery, () => state);
  setHandler(
    reviewUpdate,
    async (review) => {
      const stepId = state.waiting_for_review!;
      decision = { ...review, decided_at: Date.now() };
      // Answer once the decision is in the projection, so the API returns the run as it now is.
      await condition(() => reviewed.has(stepId) || ended);
      return { step_id: stepId, decision: review.decision };
    },
    {
      validator: (review) => {
        if (!state.waiting_for_review) {
          throw new Error(state.status === 'review' ? 'Flow run is no longer waiting for review (its review step is closing)' : `Flow run is ${state.status}; it is not waiting for review`);
        }
        if (decision) throw new Error('A review decision for this step has already been given');
        if (review?.decision !== 'approve' && review?.decision !== 'reject') throw new Error("decision must be 'approve' or 'reject'");
      },
    },
  );

  const setStatus = (status: FlowRunState['status']) => {
    state.status = status;
    upsertSearchAttributes([{ key: StatusAttr, value: status }]);
  };

  const plan = await bookkeeping.beginFlowAttempt({ runId, attempt: input.attempt, executionId: workflowInfo().runId, time: Date.now() });
  const attempt = plan.attempt;
  state.attempt = attempt;
  const ref = (stepId: string) => ({ runId, attempt, stepId });
  if (workflowInfo().typedSearchAttributes.get(StatusAttr) !== 'processing') setStatus('processing');

  async function extractionStep(step: PlanStep): Promise<void> {
    const prepared = await bookkeeping.prepareExtractionStep(ref(step.id));
    // One child workflow per file; the same workflow a single upload runs (id as lib/temporal.ts).
    const outcomes = await Promise.allSettled(
      prepared.extractionIds.map((extractionId) =>
        executeChild(extractionWorkflow, {
          workflowId: `extraction-${extractionId}`,
          args: [{ extractionId }],
          typedSearchAttributes: [
            { key: WorkspaceAttr, value: prepared.workspaceId },
            { key: TemplateAttr, value: prepared.templateId },
            { key: StatusAttr, value: 'processing' },
            { key: KindAttr, value: 'extraction' },
          ],
        }),
      ),
    );
    await bookkeeping.finishExtractionStep(ref(step.id));
    const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [failureMessage(o.reason)] : []));
    if (failed.length) {
      throw ApplicationFailure.nonRetryable(`Step '${step.title}' failed: ${failed.length} of ${outcomes.length} extraction(s) failed: ${failed.join('; ')}`, 'ExtractionFailed');
    }
  }

  async function reviewStep(step: PlanStep): Promise<void> {
    const config = step.config as ReviewConfig;
    // Waiting starts before the projection says `review`, so a reviewer who sees it is accepted.
    state.waiting_for_review = step.id;
    const requestedAt = Date.now();
    await bookkeeping.recordFlowRunStatus({ runId, attempt, status: 'review', message: `Waiting for review at step '${step.title}'`, time: requestedAt, stepId: step.id, stepStatus: 'waiting_review' });
    setStatus('review');
    // The event goes out while the run waits: a decision must not wait on it (its activity, lost
    // with a crashed worker, is retried only after its timeout). Runs started before this change
    // published first, and replay the same way.
    const published = notifyFlowRun(runId, 'flow_run.review_requested');
    if (!patched('review-event-in-background')) await published;
    try {
      await awaitDecision(step, config, requestedAt);
    } finally {
      // published before the step ends, so its event precedes the run's next ones
      await published;
    }
  }

  async function awaitDecision(step: PlanStep, config: ReviewConfig, requestedAt: number): Promise<void> {
    const decided = config.timeout_seconds
      ? await condition(() => decision !== undefined, config.timeout_seconds * 1000)
      : (await condition(() => decision !== undefined), true);
    state.waiting_for_review = null;
    const onTimeout = config.on_timeout ?? 'reject';
    const outcome = decided && decision
      ? decision
      : { decision: onTimeout, comment: `No review decision within ${config.timeout_seconds} seconds`, reviewer: null, decided_at: Date.now() };
    decision = undefined;
    const comment = outcome.comment ?? null;
    await bookkeeping.recordFlowReview({
      ...ref(step.id),
      output: {
        decision: outcome.decision,
        comment,
        reviewer: outcome.reviewer,
        requested_at: Math.floor(requestedAt / 1000),
        decided_at: Math.floor(outcome.decided_at / 1000),
        timed_out: !decided,
        ...(config.instructions ? { instructions: config.instructions } : {}),
      },
    });
    if (outcome.decision === 'reject') {
      throw ApplicationFailure.nonRetryable(`Review rejected at step '${step.title}'${comment ? `: ${comment}` : ''}`, 'ReviewRejected');
    }
    await bookkeeping.recordFlowRunStatus({
      runId, attempt, status: 'processing', time: Date.now(), stepId: step.id, stepStatus: 'running',
      message: `Review approved at step '${step.title}'${decided ? '' : ' (timed out)'}${comment && decided ? `: ${comment}` : ''}`,
    });
    setStatus('processing');
    reviewed.add(step.id);
  }

  async function runStep(step: PlanStep): Promise<void> {
    switch (step.type) {
      case 'extraction':
        return extractionStep(step);
      case 'reconciliation':
        await stepWork.reconcileStep(ref(step.id));
        return;
      case 'verify':
        await stepWork.verifyStep(ref(step.id));
        return;
      case 'export':
        await stepWork.exportStep(ref(step.id));
        return;
      case 'review':
        return reviewStep(step);
      default:
        throw ApplicationFailure.nonRetryable(`Step '${step.title}' has unknown type '${String(step.type)}'`, 'InvalidFlow');
    }
  }

  let failure: string | null = null;
  for (const step of plan.steps) {
    if (plan.reused.includes(step.id)) continue;
    state.current_step = step.id;
    await bookkeeping.recordFlowStepStarted({ ...ref(step.id), time: Date.now() });
    try {
      await runStep(step);
    } catch (error) {
      failure = failureMessage(error);
      await bookkeeping.recordFlowStepFinished({ ...ref(step.id), status: 'failed', error: failure, time: Date.now() });
      break;
    }
    await bookkeeping.recordFlowStepFinished({ ...ref(step.id), status: 'succeeded', time: Date.now() });
  }
  state.current_step = null;

  if (failure !== null) {
    await bookkeeping.recordFlowRunEnd({ runId, attempt, status: 'failed', message: failure, time: Date.now() });
    setStatus('failed');
    ended = true;
    await notifyFlowRun(runId, 'flow_run.failed');
    await condition(allHandlersFinished);
    // Fail the execution too, so the Web UI shows what the API shows; a rerun starts the next one.
    throw ApplicationFailure.nonRetryable(failure, 'FlowRunFailed');
  }
  await bookkeeping.recordFlowRunEnd({ runId, attempt, status: 'completed', time: Date.now() });
  setStatus('completed');
  ended = true;
  await notifyFlowRun(runId, 'flow_run.completed');
  await condition(allHandlersFinished);
  return { runId, attempt, status: 'completed' };
}

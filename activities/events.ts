// Turns extraction and flow-run outcomes into webhook deliveries (one per subscribed webhook).
// The workflow then starts a delivery workflow per id (workflows/notify.ts), so a slow
// receiver never holds it up.
import { ApplicationFailure } from '@temporalio/activity';
import { extractionSummary, SUMMARY_COLUMNS } from '../api/extraction-body.js';
import { runBase } from '../api/flow-run-body.js';
import type { Database } from '../lib/db.js';
import { webhookConfig, type DeliverySettings, type WebhookConfig } from './webhooks/config.js';
import { buildEvent, deliveryIdFor, type EventType } from './webhooks/payload.js';

export type { EventType } from './webhooks/payload.js';

export interface PublishInput {
  /** made by the workflow (deterministic), so a retried activity records the same event */
  eventId: string;
  /** Unix seconds, from the workflow clock */
  createdAt: number;
  type: EventType;
}

export interface Published extends DeliverySettings {
  deliveryIds: string[];
  workspaceId: string;
}

export function createEventActivities({ db, config = webhookConfig() }: { db: Database; config?: WebhookConfig }) {
  const { prisma } = db;

  /** One pending delivery per active webhook of the workspace subscribed to the event type. */
  async function record(workspaceId: string, input: PublishInput, data: Record<string, unknown>): Promise<Published> {
    const settings = { retryInitialMs: config.retryInitialMs, attemptTimeoutMs: config.attemptTimeoutMs };
    const webhooks = await prisma.webhook.findMany({ where: { workspaceId, active: true, events: { has: input.type } }, select: { id: true } });
    if (webhooks.length === 0) return { deliveryIds: [], workspaceId, ...settings };
    const payload = buildEvent({ id: input.eventId, type: input.type, createdAt: input.createdAt, data });
    const rows = webhooks.map((w) => ({
      id: deliveryIdFor(input.eventId, w.id),
      webhookId: w.id,
      eventId: input.eventId,
      eventType: input.type,
      payload: payload as object,
      status: 'pending',
    }));
    // Derived ids make a second run of this activity a no-op.
    await prisma.webhookDelivery.createMany({ data: rows, skipDuplicates: true });
    return { deliveryIds: rows.map((r) => r.id), workspaceId, ...settings };
  }

  return {
    /** Records one delivery per active webhook of the extraction's workspace subscribed to `type`. */
    async publishExtractionEvent(input: PublishInput & { extractionId: string }): Promise<Published> {
      const extraction = await prisma.extraction.findUnique({ where: { id: input.extractionId }, select: { ...SUMMARY_COLUMNS, workspaceId: true, error: true } });
      if (!extraction) throw ApplicationFailure.nonRetryable(`Extraction ${input.extractionId} does not exist`, 'NotFound');
      const data = { ...extractionSummary(extraction), ...(input.type === 'extraction.failed' ? { error: extraction.error ?? '' } : {}) };
      return record(extraction.workspaceId, input, data);
    },
    /** Same for a flow run; the payload's data is the flow run base form with its metadata. */
    async publishFlowRunEvent(input: PublishInput & { runId: string }): Promise<Published> {
      const run = await prisma.flowRun.findUnique({ where: { id: input.runId } });
      if (!run) throw ApplicationFailure.nonRetryable(`Flow run ${input.runId} does not exist`, 'NotFound');
      return record(run.workspaceId, input, runBase(run));
    },
  };
}

export type EventActivities = ReturnType<typeof createEventActivities>;

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
  const { prisma, pool } = db;
  const settings = { retryInitialMs: config.retryInitialMs, attemptTimeoutMs: config.attemptTimeoutMs };

  /**
   * The workspace of an extraction or flow run and its active webhooks subscribed to `type`, in one
   * query (plain SQL: it runs for every outcome, and most workspaces have no webhook, so nothing
   * else is read); null when the resource does not exist.
   */
  async function subscribers(resource: 'extractions' | 'flow_runs', id: string, type: EventType): Promise<{ workspaceId: string; webhookIds: string[] } | null> {
    const { rows } = await pool.query<{ workspace_id: string; webhook_ids: string[] }>(
      `SELECT r.workspace_id, ARRAY(SELECT w.id FROM webhooks w WHERE w.workspace_id = r.workspace_id AND w.active AND $2 = ANY(w.events) ORDER BY w.id) AS webhook_ids
       FROM ${resource} r WHERE r.id = $1`,
      [id, type],
    );
    const row = rows[0];
    return row ? { workspaceId: row.workspace_id, webhookIds: row.webhook_ids } : null;
  }

  /**
   * One pending delivery per subscribed webhook; the payload's data (`describe`) is read only when
   * there is a delivery to make.
   */
  async function publish(resource: 'extractions' | 'flow_runs', id: string, input: PublishInput, describe: () => Promise<Record<string, unknown>>): Promise<Published> {
    const found = await subscribers(resource, id, input.type);
    if (!found) throw ApplicationFailure.nonRetryable(`${resource === 'extractions' ? 'Extraction' : 'Flow run'} ${id} does not exist`, 'NotFound');
    const { workspaceId, webhookIds } = found;
    if (webhookIds.length === 0) return { deliveryIds: [], workspaceId, ...settings };
    const payload = buildEvent({ id: input.eventId, type: input.type, createdAt: input.createdAt, data: await describe() });
    const rows = webhookIds.map((webhookId) => ({
      id: deliveryIdFor(input.eventId, webhookId),
      webhookId,
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
      return publish('extractions', input.extractionId, input, async () => {
        const extraction = await prisma.extraction.findUniqueOrThrow({ where: { id: input.extractionId }, select: { ...SUMMARY_COLUMNS, error: true } });
        return { ...extractionSummary(extraction), ...(input.type === 'extraction.failed' ? { error: extraction.error ?? '' } : {}) };
      });
    },
    /** Same for a flow run; the payload's data is the flow run base form with its metadata. */
    async publishFlowRunEvent(input: PublishInput & { runId: string }): Promise<Published> {
      return publish('flow_runs', input.runId, input, async () => runBase(await prisma.flowRun.findUniqueOrThrow({ where: { id: input.runId } })));
    },
  };
}

export type EventActivities = ReturnType<typeof createEventActivities>;

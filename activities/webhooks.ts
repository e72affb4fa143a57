// Webhook delivery activities: thin adapters from Temporal to the signing and HTTP modules.
// One call is one attempt; Temporal's retry policy (workflows/webhook-delivery.ts) spaces them.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Database } from '../lib/db.js';
import { unixSeconds } from '../lib/ids.js';
import { webhookConfig, type WebhookConfig } from './webhooks/config.js';
import { outcomeOf, postWebhook } from './webhooks/post.js';
import { signedHeaders } from './webhooks/signing.js';
import type { WebhookEvent } from './webhooks/payload.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One recorded attempt, as GET /v2/webhooks/{id}/deliveries shows it. */
export interface DeliveryAttempt {
  attempt: number;
  /** Unix seconds when the attempt started */
  time: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface WebhookDeps {
  db: Database;
  config?: WebhookConfig;
}

/** Appends an attempt and sets the status in one statement (a delivered row stays delivered). */
export async function recordAttempt(db: Database, deliveryId: string, attempt: DeliveryAttempt, status: DeliveryStatus): Promise<void> {
  await db.pool.query(
    `UPDATE webhook_deliveries
        SET attempts = attempts || $2::jsonb,
            status = CASE WHEN status = 'delivered' THEN status ELSE $3 END,
            updated_at = now()
      WHERE id = $1`,
    [deliveryId, JSON.stringify(attempt), status],
  );
}

/** The body as sent: top-level keys in the documented order. */
export function eventBody(payload: unknown): string {
  const event = payload as WebhookEvent;
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: event.data });
}

export function createWebhookActivities({ db, config = webhookConfig() }: WebhookDeps) {
  const { prisma } = db;

  return {
    /** One POST. Returns on a 2xx; non-retryable failure for a 4xx other than 408/429. */
    async deliverWebhook({ deliveryId }: { deliveryId: string }): Promise<{ statusCode: number }> {
      const attempt = Context.current().info.attempt;
      const delivery = await prisma.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { webhook: true } });
      if (!delivery) throw ApplicationFailure.nonRetryable(`Delivery ${deliveryId} no longer exists (its webhook was deleted)`, 'WebhookGone');
      const last = (delivery.attempts as unknown as DeliveryAttempt[]).at(-1);
      if (delivery.status === 'delivered' && last?.status_code) return { statusCode: last.status_code };
      const time = unixSeconds();
      if (!delivery.webhook.active) {
        const error = 'The webhook is inactive';
        await recordAttempt(db, deliveryId, { attempt, time, status_code: null, duration_ms: 0, error }, 'failed');
        throw ApplicationFailure.nonRetryable(error, 'WebhookGone');
      }
      const body = eventBody(delivery.payload);
      const headers = signedHeaders({ id: delivery.eventId, timestamp: time, body, secret: delivery.webhook.secret });
      const result = await postWebhook({
        url: delivery.webhook.url, headers, body, timeoutMs: config.attemptTimeoutMs, allowPrivate: config.allowPrivate,
      });
      const outcome = result.refused ? 'stop' : outcomeOf(result.statusCode);
      const status: DeliveryStatus = outcome === 'delivered' ? 'delivered' : outcome === 'stop' ? 'failed' : 'pending';
      await recordAttempt(db, deliveryId, { attempt, time, status_code: result.statusCode, duration_ms: result.durationMs, error: result.error }, status);
      if (outcome === 'delivered') return { statusCode: result.statusCode! };
      const message = result.error ?? `HTTP ${result.statusCode}`;
      if (outcome === 'stop') throw ApplicationFailure.nonRetryable(message, result.refused ? 'WebhookRefused' : 'WebhookRejected');
      throw ApplicationFailure.retryable(message, 'WebhookAttemptFailed');
    },

    /** After the last retry: the delivery is failed (unless an attempt got through meanwhile). */
    async failDelivery({ deliveryId }: { deliveryId: string }): Promise<void> {
      await prisma.webhookDelivery.updateMany({ where: { id: deliveryId, status: 'pending' }, data: { status: 'failed', updatedAt: new Date() } });
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;

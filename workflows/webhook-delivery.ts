// One webhook delivery: POST until a 2xx, with exponential backoff for 25 hours. A 4xx other
// than 408/429, a refused address or a deleted/inactive webhook stops it at once. Each attempt
// is recorded by the activity; this workflow only marks the delivery failed when it gives up.
import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks.js';
import { failureMessage } from './failure.js';
import { BOOKKEEPING_TIMEOUT } from './timeouts.js';

export interface WebhookDeliveryInput {
  deliveryId: string;
  /** first retry interval (ms); doubled each time up to 1 h */
  retryInitialMs: number;
  /** one attempt's HTTP deadline (ms) */
  attemptTimeoutMs: number;
}

/** Retries span at least 24 h (spec'd by the webhooks issue); 25 h leaves room for the last attempt. */
export const DELIVERY_WINDOW = '25 hours';
export const PERMANENT_DELIVERY_ERRORS = ['WebhookRejected', 'WebhookRefused', 'WebhookGone'];

const bookkeeping = proxyActivities<WebhookActivities>({
  startToCloseTimeout: BOOKKEEPING_TIMEOUT,
  retry: { initialInterval: '1s', maximumInterval: '1 minute', backoffCoefficient: 2, maximumAttempts: 50 },
});

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<{ deliveryId: string; statusCode: number }> {
  const sending = proxyActivities<WebhookActivities>({
    // the HTTP deadline plus room for the database writes around it
    startToCloseTimeout: input.attemptTimeoutMs + 30_000,
    scheduleToCloseTimeout: DELIVERY_WINDOW,
    retry: {
      initialInterval: input.retryInitialMs,
      backoffCoefficient: 2,
      maximumInterval: '1 hour',
      nonRetryableErrorTypes: PERMANENT_DELIVERY_ERRORS,
    },
  });
  try {
    const { statusCode } = await sending.deliverWebhook({ deliveryId: input.deliveryId });
    return { deliveryId: input.deliveryId, statusCode };
  } catch (error) {
    const message = failureMessage(error);
    await bookkeeping.failDelivery({ deliveryId: input.deliveryId });
    // Fail the workflow too, so the Web UI shows what the deliveries endpoint shows.
    throw ApplicationFailure.nonRetryable(`Webhook delivery ${input.deliveryId} failed: ${message}`, 'WebhookDeliveryFailed');
  }
}

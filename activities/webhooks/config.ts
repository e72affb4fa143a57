// Webhook delivery settings. WEBHOOK_ALLOW_PRIVATE comes from the environment schema (lib/env.ts);
// the retry and timeout knobs are read here (tests shorten them).
import { z } from 'zod';

export interface WebhookConfig {
  /** deliver to loopback/private addresses too (tests, trusted networks) */
  allowPrivate: boolean;
  /** first retry interval; then doubled up to 1 h, for 25 h in all */
  retryInitialMs: number;
  /** one attempt's deadline, connect to last byte */
  attemptTimeoutMs: number;
}

const schema = z.object({
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default('false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  WEBHOOK_RETRY_INITIAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
});

export function webhookConfig(source: Record<string, string | undefined> = process.env): WebhookConfig {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  return {
    allowPrivate: parsed.data.WEBHOOK_ALLOW_PRIVATE,
    retryInitialMs: parsed.data.WEBHOOK_RETRY_INITIAL_MS,
    attemptTimeoutMs: parsed.data.WEBHOOK_TIMEOUT_MS,
  };
}

/** What a delivery workflow needs to know; carried in its input (workflows cannot read env). */
export interface DeliverySettings {
  retryInitialMs: number;
  attemptTimeoutMs: number;
}

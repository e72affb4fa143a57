// Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64
// of random bytes; the signature is `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`
// keyed with the base64-decoded secret. Plain functions: no Temporal, no HTTP.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes (the standard asks for 24 to 64). */
const SECRET_BYTES = 32;

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('The webhook secret is empty');
  return key;
}

/** The `webhook-signature` header value for one message. */
export function sign(input: { id: string; timestamp: number; body: string; secret: string }): string {
  const mac = createHmac('sha256', secretKey(input.secret)).update(`${input.id}.${input.timestamp}.${input.body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers a delivery carries, for a body signed at `timestamp` (Unix seconds). */
export function signedHeaders(input: { id: string; timestamp: number; body: string; secret: string }): Record<string, string> {
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': sign(input),
  };
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/**
 * What a receiver does: the timestamp is recent (default ±5 minutes) and one of the
 * space-separated `v1,` signatures matches, compared in constant time.
 */
export function verify(
  headers: { 'webhook-id'?: string | null; 'webhook-timestamp'?: string | null; 'webhook-signature'?: string | null },
  body: string,
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): VerifyResult {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) return { ok: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature' };
  const ts = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(ts)) return { ok: false, reason: 'webhook-timestamp is not a Unix timestamp' };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - ts) > tolerance) return { ok: false, reason: 'webhook-timestamp is too old or too new' };
  const expected = Buffer.from(sign({ id, timestamp: ts, body, secret }).slice(3), 'base64');
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'no signature matches' };
}

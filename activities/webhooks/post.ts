// One HTTP POST of a webhook message and what its answer means. Plain module: no Temporal.
// node:http rather than fetch so the connect-time address check (guardedLookup) applies to the
// socket, and redirects are never followed (a redirect counts as a failed attempt).
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { AddressError, guardedLookup, isPrivateAddress, parseReceiverUrl, type LookupAll, lookupAll } from './address-guard.js';

export interface PostResult {
  /** null when no HTTP answer came (connection refused, timeout, refused address) */
  statusCode: number | null;
  durationMs: number;
  /** why the attempt failed; null for a 2xx */
  error: string | null;
  /** the address guard refused the receiver: retrying will not help */
  refused?: boolean;
}

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  lookup?: LookupAll;
}

const RESPONSE_EXCERPT = 200;

export type Outcome = 'delivered' | 'retry' | 'stop';

/** A 2xx ends the delivery; a 4xx other than 408 and 429 stops it; anything else is retried. */
export function outcomeOf(statusCode: number | null): Outcome {
  if (statusCode === null) return 'retry';
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  if (statusCode >= 400 && statusCode < 500 && statusCode !== 408 && statusCode !== 429) return 'stop';
  return 'retry';
}

export async function postWebhook(options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = parseReceiverUrl(options.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
      throw new AddressError(`The webhook host '${host}' is a private or loopback address`);
    }
  } catch (error) {
    return { statusCode: null, durationMs: elapsed(), error: (error as Error).message, refused: true };
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(options.body)),
          'user-agent': 'Distill-Webhooks/1.0',
          ...options.headers,
        },
        ...(options.allowPrivate ? {} : { lookup: guardedLookup(options.lookup ?? lookupAll) as never }),
        timeout: options.timeoutMs,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_EXCERPT) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          if (status >= 200 && status < 300) return finish({ statusCode: status, error: null });
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT).trim();
          finish({ statusCode: status, error: `HTTP ${status}${excerpt ? `: ${excerpt}` : ''}` });
        });
        response.on('error', (error) => finish({ statusCode: status, error: `HTTP ${status}; reading the answer failed: ${error.message}` }));
      },
    );
    // One deadline for the whole attempt, not just idle time between packets.
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (error: NodeJS.ErrnoException) => {
      const refused = error instanceof AddressError || error.code === 'EADDRREFUSED_PRIVATE';
      finish({ statusCode: null, error: error.code && !refused ? `${error.code}: ${error.message}` : error.message, ...(refused ? { refused: true } : {}) });
    });
    request.on('close', () => clearTimeout(deadline));
    request.end(options.body);
  });
}

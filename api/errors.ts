// The one error module: every failure leaves the API as {"error": "..."} with its status.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';
import { z } from '@hono/zod-openapi';
import { log } from '../lib/log.js';

export class ApiError extends Error {
  constructor(readonly status: ContentfulStatusCode, message: string) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (what: string) => new ApiError(404, `${what} not found`);
export const conflict = (message: string) => new ApiError(409, message);
export const unauthorized = () => new ApiError(401, 'Invalid or missing API key');

export const ErrorSchema = z.object({ error: z.string() }).openapi('Error', { example: { error: 'Extraction not found' } });

export function errorResponses(...statuses: (400 | 401 | 404 | 409 | 413 | 503)[]) {
  const descriptions: Record<number, string> = {
    400: 'The request is not valid',
    401: 'Invalid or missing API key',
    404: 'Not found in the caller\'s workspace',
    409: 'The resource is not in a state that allows this',
    413: 'Too large',
    503: 'A dependency is unavailable; try again',
  };
  return Object.fromEntries(
    statuses.map((s) => [s, { description: descriptions[s]!, content: { 'application/json': { schema: ErrorSchema } } }]),
  );
}

/** zod issues as one readable sentence naming the parameter. */
export function describeZodError(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'The request is not valid';
  const path = first.path.join('.');
  return path ? `The parameter '${path}' is invalid: ${first.message}` : first.message;
}

export function handleError(error: Error, c: Context): Response {
  if (error instanceof ApiError) return c.json({ error: error.message }, error.status);
  if (error instanceof z.ZodError) return c.json({ error: describeZodError(error) }, 400);
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    return c.json({ error: error.message || 'Request failed' }, status);
  }
  log.error('unhandled error', { request_id: c.get('requestId' as never), error: error.stack ?? String(error) });
  return c.json({ error: 'Internal server error' }, 500);
}

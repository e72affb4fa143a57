import type { Hook } from '@hono/zod-openapi';
import type { z } from '@hono/zod-openapi';
import type { AppEnv } from './context.js';
import { describeZodError } from './errors.js';

/** Request validation failures answer 400 {error} naming the parameter. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (!result.success) return c.json({ error: describeZodError(result.error as z.ZodError) }, 400);
  return undefined;
};

export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } };
}

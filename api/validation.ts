import { z, type Hook } from '@hono/zod-openapi';
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

/** An integer query parameter with a range and a default; out of range answers 400 naming it. */
export function intParam(name: string, min: number, max: number, fallback: number) {
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `The parameter '${name}' must be an integer from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    })
    .openapi({ type: 'integer', minimum: min, maximum: max, default: fallback });
}

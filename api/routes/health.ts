// GET /healthz (no auth): 200 once Postgres, Temporal and S3 answer; 503 naming what does not.
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context.js';

const HealthSchema = z
  .object({ status: z.enum(['ok', 'unavailable']), checks: z.record(z.string(), z.string()), error: z.string().optional() })
  .openapi('Health', { example: { status: 'ok', checks: { postgres: 'ok', temporal: 'ok', s3: 'ok' } } });

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);
}

export function healthRoutes({ db, storage, temporal, env }: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      method: 'get', path: '/healthz', tags: ['Health'], summary: 'Readiness of the service and its dependencies',
      responses: {
        200: { description: 'Everything answers', content: { 'application/json': { schema: HealthSchema } } },
        503: { description: 'A dependency does not answer', content: { 'application/json': { schema: HealthSchema } } },
      },
    }),
    async (c) => {
      const probes: Record<string, () => Promise<unknown>> = {
        postgres: () => db.pool.query('SELECT 1'),
        temporal: () => temporal.workflowService.describeNamespace({ namespace: env.TEMPORAL_NAMESPACE }),
        s3: () => storage.ping(),
      };
      const checks: Record<string, string> = {};
      await Promise.all(
        Object.entries(probes).map(async ([name, probe]) => {
          try {
            await withTimeout(probe(), 2000);
            checks[name] = 'ok';
          } catch (error) {
            checks[name] = `unavailable: ${(error as Error).message}`;
          }
        }),
      );
      const down = Object.keys(checks).filter((k) => checks[k] !== 'ok');
      if (down.length) return c.json({ status: 'unavailable' as const, checks, error: `Unavailable: ${down.join(', ')}` }, 503);
      return c.json({ status: 'ok' as const, checks }, 200);
    },
  );
  return app;
}

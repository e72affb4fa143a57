// The HTTP app: request ids and logs, auth, route groups, the OpenAPI document and its page.
import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { log } from '../lib/log.js';
import { requireApiKey } from './auth.js';
import type { AppDeps, AppEnv } from './context.js';
import { handleError } from './errors.js';
import { extractionRoutes } from './routes/extractions.js';
import { healthRoutes } from './routes/health.js';
import { templateRoutes } from './routes/templates.js';
import { validationHook } from './validation.js';

export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use('*', async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    c.header('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      log.info('request', {
        request_id: requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        workspace_id: c.get('workspaceId'),
      });
    }
  });

  app.use('/v2/*', requireApiKey(deps));
  app.use('/v1/*', requireApiKey(deps));

  app.route('/', healthRoutes(deps));
  app.route('/', templateRoutes(deps));
  app.route('/', extractionRoutes(deps));

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', description: 'A workspace API key' });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Distill API', version: '2.0.0', description: 'Documents in, validated structured data out.' },
  });

  app.notFound((c) => c.json({ error: `No route for ${c.req.method} ${c.req.path}` }, 404));
  app.onError(handleError);
  return app;
}


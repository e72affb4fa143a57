// The HTTP app: request ids and logs, auth, route groups, the OpenAPI document and its page.
import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { log } from '../lib/log.js';
import { requireApiKey } from './auth.js';
import type { AppDeps, AppEnv } from './context.js';
import { docsRoutes } from './docs.js';
import { handleError } from './errors.js';
import { documentBuilder } from './openapi-config.js';
import { extractionRoutes } from './routes/extractions.js';
import { flowRunRoutes } from './routes/flow-runs.js';
import { flowRoutes } from './routes/flows.js';
import { healthRoutes } from './routes/health.js';
import { importerRoutes } from './routes/importer.js';
import { templateRoutes } from './routes/templates.js';
import { registerWebhookEvents, webhookRoutes } from './routes/webhooks.js';
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
  app.route('/', flowRunRoutes(deps)); // before flowRoutes: /v2/flows/runs is not a flow id
  app.route('/', flowRoutes(deps));
  app.route('/', webhookRoutes(deps));
  registerWebhookEvents(app.openAPIRegistry);
  app.route('/', importerRoutes(deps));

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', description: 'A workspace API key' });
  const openApiDocument = documentBuilder(app);
  app.get('/openapi.json', (c) => c.json(openApiDocument(new URL(c.req.url).origin)));
  app.route('/', docsRoutes((url) => openApiDocument(new URL(url).origin)));

  app.notFound((c) => c.json({ error: `No route for ${c.req.method} ${c.req.path}` }, 404));
  app.onError(handleError);
  return app;
}


// The OpenAPI document covers every registered route, its examples match its schemas, and the
// reference pages render. (Responses of the integration suites are checked against the document
// by tests/helpers/http.ts ApiClient with `validate`.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createApp } from '../../api/app.js';
import type { AppDeps } from '../../api/context.js';
import { env } from '../../lib/env.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { ApiClient, ResponseValidator } from '../helpers/http.js';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/** Routes served on purpose outside the document: the document itself, its pages, and the spec-7 "no id" answers. */
const UNDOCUMENTED = new Set(['GET /openapi.json', 'GET /docs', 'GET /docs/scalar', 'GET /v2/extractions/', 'GET /v2/extractions//download-original']);

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The app's registered routes (Hono `app.routes`), as `METHOD /path/{param}`. */
function registeredRoutes(): string[] {
  const app = createApp({ env: env(), db: { prisma: {}, pool: {} }, storage: {}, temporal: {} } as unknown as AppDeps);
  const routes = app.routes
    .filter((r) => r.method !== 'ALL')
    .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
  return [...new Set(routes)];
}

describe('OpenAPI document and reference', () => {
  let app: TestApp;
  let doc: any;

  before(async () => {
    app = await startApp();
    const res = await fetch(`${app.url}/openapi.json`);
    assert.equal(res.status, 200);
    doc = await res.json();
  });
  after(async () => {
    await app.stop();
  });

  it('is OpenAPI 3.1 with info, servers, tags and the bearer scheme', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.title, 'Distill API');
    assert.ok(doc.info.description.length > 100);
    assert.equal(doc.servers[0].url, app.url);
    assert.ok(doc.tags.some((t: any) => t.name === 'Webhooks'));
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: 'A workspace API key' });
  });

  it('has every registered route', () => {
    const routes = registeredRoutes();
    assert.ok(routes.length > 20, `only ${routes.length} routes found`);
    const missing = routes.filter((route) => {
      if (UNDOCUMENTED.has(route)) return false;
      const [method, path] = route.split(' ') as [string, string];
      return !doc.paths[path]?.[method.toLowerCase()];
    });
    assert.deepEqual(missing, [], `routes missing from /openapi.json: ${missing.join(', ')}`);
    // and nothing in the document that the app does not serve
    const served = new Set(routes);
    const phantom = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
      METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`).filter((r) => !served.has(r)),
    );
    assert.deepEqual(phantom, []);
  });

  it('describes every operation: summary, tag, auth, schemas and examples of JSON bodies', () => {
    const problems: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const name = `${method.toUpperCase()} ${path}`;
        if (!op.summary) problems.push(`${name}: no summary`);
        if (!op.tags?.length) problems.push(`${name}: no tag`);
        if ((path.startsWith('/v2/') || path.startsWith('/v1/')) && !op.security?.some((s: any) => 'bearerAuth' in s)) problems.push(`${name}: no bearerAuth`);
        if (!Object.keys(op.responses ?? {}).some((s) => s.startsWith('2'))) problems.push(`${name}: no success response`);
        if ((path.startsWith('/v2/') || path.startsWith('/v1/')) && !op.responses?.['401']) problems.push(`${name}: 401 not documented`);
        const bodies = [
          ...Object.entries<any>(op.requestBody?.content ?? {}).map(([type, media]) => [`request ${type}`, media] as const),
          ...Object.entries<any>(op.responses ?? {}).flatMap(([status, r]) => Object.entries<any>(r.content ?? {}).map(([type, media]) => [`${status} ${type}`, media] as const)),
        ];
        for (const [label, media] of bodies) {
          if (!media.schema) problems.push(`${name} ${label}: no schema`);
          if ((label.includes('json') || label.includes('multipart')) && media.example === undefined && media.examples === undefined) problems.push(`${name} ${label}: no example`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it('has examples that match their schemas', () => {
    const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('binary', true);
    ajv.addSchema(doc, 'openapi');
    const escape = (p: string) => p.replace(/~/g, '~0').replace(/\//g, '~1');
    const problems: string[] = [];
    const check = (pointer: string[], example: unknown, label: string) => {
      const validate = ajv.getSchema(`openapi#/${pointer.map(escape).join('/')}`);
      if (!validate) return problems.push(`${label}: no schema`);
      if (!validate(example)) problems.push(`${label}: ${ajv.errorsText(validate.errors)}`);
      return undefined;
    };
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
      if (schema.example !== undefined) check(['components', 'schemas', name], schema.example, `component ${name}`);
    }
    for (const [group, paths] of [['paths', doc.paths], ['webhooks', doc.webhooks ?? {}]] as const) {
      for (const [path, item] of Object.entries<any>(paths)) {
        for (const method of METHODS) {
          const op = item[method];
          if (!op) continue;
          for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {})) {
            if (type.includes('json') && media.example !== undefined) check([group, path, method, 'requestBody', 'content', type, 'schema'], media.example, `${method} ${path} request`);
          }
          for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
            for (const [type, media] of Object.entries<any>(response.content ?? {})) {
              if (type.includes('json') && media.example !== undefined) check([group, path, method, 'responses', status, 'content', type, 'schema'], media.example, `${method} ${path} ${status}`);
            }
          }
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it('documents the five webhook events with their signature headers', () => {
    assert.deepEqual(Object.keys(doc.webhooks).sort(), ['extraction.completed', 'extraction.failed', 'flow_run.completed', 'flow_run.failed', 'flow_run.review_requested']);
    const op = doc.webhooks['extraction.completed'].post;
    assert.deepEqual(op.parameters.map((p: any) => p.name).sort(), ['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    assert.equal(op.requestBody.content['application/json'].example.type, 'extraction.completed');
  });

  it('serves a self-contained reference page at /docs and the Scalar page at /docs/scalar', async () => {
    const res = await fetch(`${app.url}/docs`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    const html = await res.text();
    assert.doesNotMatch(html, /<script/i, 'the /docs page needs no scripts');
    assert.doesNotMatch(html, /(src|href)="https?:/i, 'the /docs page loads nothing from elsewhere');
    for (const path of ['/v2/extractions/upload', '/v2/webhooks/{id}/deliveries', '/v1/importer', '/v2/templates']) assert.ok(html.includes(`<code>${path}</code>`), path);
    assert.ok(html.includes('webhook-signature'));
    const scalar = await fetch(`${app.url}/docs/scalar`);
    assert.equal(scalar.status, 200);
    assert.match(await scalar.text(), /openapi\.json/);
  });

  it('validates responses with the test client and reports mismatches', async () => {
    const { key } = await app.workspace('openapi');
    const api = new ApiClient(app.url, key, { validate: true });
    assert.equal((await api.get('/v2/templates')).status, 200);
    assert.equal((await api.get('/v2/webhooks/whk_nope')).status, 404);
    assert.equal((await api.withKey(undefined).get('/v2/extractions')).status, 401);
    const validator = await ResponseValidator.load(app.url);
    assert.equal(validator.templateOf('/v2/flows/runs/run_1'), '/v2/flows/runs/{id}');
    assert.equal(validator.templateOf('/v2/webhooks/whk_1/deliveries?limit=5'), '/v2/webhooks/{id}/deliveries');
    assert.deepEqual(validator.check('GET', '/v2/webhooks/whk_1', 200, 'application/json', { id: 'whk_1' }, '{}').length > 0, true);
    assert.match(validator.check('GET', '/v2/webhooks/whk_1', 418, 'application/json', {}, '{}')[0]!, /status 418 is not documented/);
    assert.deepEqual(validator.check('GET', '/nowhere', 404, 'application/json', {}, '{}'), []);
  });
});

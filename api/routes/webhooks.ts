// Webhooks (spec section 6, issue 6): configuration, signing secrets, deliveries and resends.
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { TypedSearchAttributes } from '@temporalio/common';
import { AddressError, assertPublicUrl, parseReceiverUrl } from '../../activities/webhooks/address-guard.js';
import { webhookConfig } from '../../activities/webhooks/config.js';
import { EVENT_TYPES, type EventType } from '../../activities/webhooks/payload.js';
import { generateSecret } from '../../activities/webhooks/signing.js';
import { newId, unixSeconds } from '../../lib/ids.js';
import { workflowIds } from '../../lib/temporal.js';
import type { Webhook, WebhookDelivery } from '../../generated/prisma/index.js';
import { KindAttr, WorkspaceAttr } from '../../workflows/search-attributes.js';
import type { WebhookDeliveryInput } from '../../workflows/webhook-delivery.js';
import type { AppDeps, AppEnv, Router } from '../context.js';
import { ApiError, badRequest, conflict, errorResponses, notFound } from '../errors.js';
import { FlowRunSchema } from '../flow-run-body.js';
import { ExtractionSummarySchema } from '../schemas.js';
import { jsonBody, intParam, validationHook } from '../validation.js';

const security = [{ bearerAuth: [] }];
const EXAMPLE_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const EventTypeSchema = z.enum(EVENT_TYPES).openapi('WebhookEventType', { example: 'extraction.completed' });

const WebhookInputSchema = z
  .object({
    url: z.string().min(1).openapi({ description: 'http(s) receiver; private and loopback addresses are refused', example: 'https://example.com/hooks/distill' }),
    events: z.array(EventTypeSchema).min(1).optional().openapi({ description: 'Event types to receive; all of them when omitted' }),
    active: z.boolean().default(true),
  })
  .openapi('WebhookInput', { example: { url: 'https://example.com/hooks/distill', events: ['extraction.completed', 'extraction.failed'] } });

const WebhookPatchSchema = z
  .object({
    url: z.string().min(1).optional(),
    events: z.array(EventTypeSchema).min(1).optional(),
    active: z.boolean().optional(),
  })
  .openapi('WebhookPatch', { example: { active: false } });

const webhookExample = {
  id: 'whk_0123456789abcdefghjkmnpqrs',
  workspace_id: 'ws_0123456789abcdefghjkmnpqrs',
  url: 'https://example.com/hooks/distill',
  events: ['extraction.completed', 'extraction.failed'],
  active: true,
  created_at: 1735689600,
  updated_at: 1735689600,
};

const WebhookSchema = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    url: z.string(),
    events: z.array(EventTypeSchema),
    active: z.boolean(),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi('Webhook', { example: webhookExample });

const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().openapi({ description: 'Signing secret: `whsec_` + base64 of 32 random bytes. Shown only here; store it now.' }),
}).openapi('WebhookWithSecret', { example: { ...webhookExample, secret: EXAMPLE_SECRET } });

const AttemptSchema = z
  .object({
    attempt: z.number().int().openapi({ description: '1-based, per delivery' }),
    time: z.number().int().openapi({ description: 'Unix seconds when the attempt started' }),
    status_code: z.number().int().nullable().openapi({ description: 'HTTP status of the answer; null when none came' }),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
  })
  .openapi('WebhookAttempt');

const deliveryExample = {
  id: 'dlv_6f1c0e9b2a7d4c3e8f5a1b2c3d',
  webhook_id: webhookExample.id,
  event_id: 'evt_4f9a1c2b3d4e5f60718293a4b5c6d7e8',
  event_type: 'extraction.completed',
  status: 'delivered',
  attempts: [
    { attempt: 1, time: 1735689601, status_code: 500, duration_ms: 41, error: 'HTTP 500: try later' },
    { attempt: 2, time: 1735689611, status_code: 200, duration_ms: 38, error: null },
  ],
  error: null,
  created_at: 1735689601,
  updated_at: 1735689611,
  payload: {
    id: 'evt_4f9a1c2b3d4e5f60718293a4b5c6d7e8',
    type: 'extraction.completed',
    created_at: 1735689601,
    data: {
      id: 'ext_0123456789abcdefghjkmnpqrs', status: 'completed', template_id: 'tpl_0123456789abcdefghjkmnpqrs', metadata: { customer: 'acme' },
      created_at: 1735689590, updated_at: 1735689601, file_info: { file_name: 'invoice.pdf', file_type: 'pdf' },
    },
  },
};

const DeliverySchema = z
  .object({
    id: z.string(),
    webhook_id: z.string(),
    event_id: z.string().openapi({ description: 'Sent as the webhook-id header; the same for a resend of the event' }),
    event_type: EventTypeSchema,
    status: z.enum(['pending', 'delivered', 'failed']).openapi({ description: 'pending while attempts go on (retries for 24 h)' }),
    attempts: z.array(AttemptSchema),
    error: z.string().nullable().openapi({ description: 'The last attempt\'s error unless delivered' }),
    created_at: z.number().int(),
    updated_at: z.number().int(),
    payload: z.object({ id: z.string(), type: EventTypeSchema, created_at: z.number().int(), data: z.record(z.string(), z.unknown()) }).openapi({ description: 'The event as sent' }),
  })
  .openapi('WebhookDelivery', { example: deliveryExample });

// The event payloads, for the document's `webhooks` section.
const ExtractionEventDataSchema = ExtractionSummarySchema.extend({
  error: z.string().optional().openapi({ description: 'Present on extraction.failed' }),
}).openapi('ExtractionEventData', { description: 'The extraction summary (spec 2.2) with its metadata' });

function eventSchema(type: EventType) {
  const data = type.startsWith('extraction.') ? ExtractionEventDataSchema : FlowRunSchema;
  return z.object({ id: z.string(), type: z.literal(type), created_at: z.number().int(), data });
}

const SignatureHeaders = z.object({
  'webhook-id': z.string().openapi({ description: 'The event id; the same on every attempt and resend (use it to deduplicate)' }),
  'webhook-timestamp': z.string().openapi({ description: 'Unix seconds when this attempt was signed' }),
  'webhook-signature': z.string().openapi({ description: '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded secret after `whsec_`' }),
});

const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'extraction.completed': 'An extraction finished; its rows can be read.',
  'extraction.failed': 'An extraction failed; `data.error` says why.',
  'flow_run.completed': 'A flow run finished all its steps.',
  'flow_run.failed': 'A flow run failed; `data.error` says why.',
  'flow_run.review_requested': 'A flow run paused for human review (status review).',
};

const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: webhookExample.id }) });
const DeliveryParams = IdParam.extend({ delivery_id: z.string().openapi({ param: { name: 'delivery_id', in: 'path' }, example: deliveryExample.id }) });

function webhookBody(w: Webhook) {
  return {
    id: w.id,
    workspace_id: w.workspaceId,
    url: w.url,
    events: w.events as EventType[],
    active: w.active,
    created_at: unixSeconds(w.createdAt),
    updated_at: unixSeconds(w.updatedAt),
  };
}

interface StoredAttempt {
  attempt: number;
  time: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

function deliveryBody(d: WebhookDelivery) {
  const attempts = (Array.isArray(d.attempts) ? d.attempts : []) as unknown as StoredAttempt[];
  const status = d.status as 'pending' | 'delivered' | 'failed';
  return {
    id: d.id,
    webhook_id: d.webhookId,
    event_id: d.eventId,
    event_type: d.eventType as EventType,
    status,
    attempts,
    error: status === 'delivered' ? null : (attempts.at(-1)?.error ?? null),
    created_at: unixSeconds(d.createdAt),
    updated_at: unixSeconds(d.updatedAt),
    payload: d.payload as { id: string; type: EventType; created_at: number; data: Record<string, unknown> },
  };
}

/**
 * The event payloads a receiver gets, in the document's `webhooks` section. Registered on the
 * root app's registry (a sub-app's would prefix the names with '/').
 */
export function registerWebhookEvents(registry: Router['openAPIRegistry']): void {
  for (const type of EVENT_TYPES) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      tags: ['Webhooks'],
      summary: type,
      description: `${EVENT_DESCRIPTIONS[type]} Signed the Standard Webhooks way; retried with exponential backoff for 24 h until the receiver answers 2xx (a 4xx other than 408/429 stops it).`,
      request: { headers: SignatureHeaders, body: { required: true, content: { 'application/json': { schema: eventSchema(type) } } } },
      responses: { 200: { description: 'Any 2xx acknowledges the event' } },
    });
  }
}

export function webhookRoutes({ db, temporal, env }: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const { prisma } = db;
  const settings = webhookConfig();

  async function checkUrl(raw: string): Promise<string> {
    try {
      const trimmed = raw.trim();
      if (env.WEBHOOK_ALLOW_PRIVATE) parseReceiverUrl(trimmed);
      else await assertPublicUrl(trimmed);
      return trimmed;
    } catch (error) {
      if (error instanceof AddressError) throw badRequest(`The parameter 'url' is invalid: ${error.message}`);
      throw error;
    }
  }

  async function find(workspaceId: string, id: string) {
    const webhook = await prisma.webhook.findFirst({ where: { id, workspaceId } });
    if (!webhook) throw notFound('Webhook');
    return webhook;
  }

  async function startDelivery(deliveryId: string, workspaceId: string) {
    const input: WebhookDeliveryInput = { deliveryId, retryInitialMs: settings.retryInitialMs, attemptTimeoutMs: settings.attemptTimeoutMs };
    await temporal.workflow.start('webhookDeliveryWorkflow', {
      workflowId: workflowIds.webhookDelivery(deliveryId),
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      args: [input],
      typedSearchAttributes: new TypedSearchAttributes([
        { key: WorkspaceAttr, value: workspaceId },
        { key: KindAttr, value: 'webhook_delivery' },
      ]),
    });
  }

  app.openapi(
    createRoute({
      method: 'post', path: '/v2/webhooks', tags: ['Webhooks'], security, summary: 'Create a webhook',
      description: 'Answers with the signing secret, which is shown only here and on rotation.',
      request: { body: jsonBody(WebhookInputSchema) },
      responses: { 201: { description: 'Created', content: { 'application/json': { schema: WebhookWithSecretSchema } } }, ...errorResponses(400, 401) },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const url = await checkUrl(input.url);
      const secret = generateSecret();
      const webhook = await prisma.webhook.create({
        data: {
          id: newId('whk'), workspaceId: c.get('workspaceId'), url, secret, active: input.active,
          events: input.events ? [...new Set(input.events)] : [...EVENT_TYPES],
        },
      });
      return c.json({ ...webhookBody(webhook), secret }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/webhooks', tags: ['Webhooks'], security, summary: 'List webhooks',
      responses: { 200: { description: 'All webhooks of the workspace, newest first (without secrets)', content: { 'application/json': { schema: z.object({ webhooks: z.array(WebhookSchema) }) } } }, ...errorResponses(401) },
    }),
    async (c) => {
      const list = await prisma.webhook.findMany({ where: { workspaceId: c.get('workspaceId') }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      return c.json({ webhooks: list.map(webhookBody) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/webhooks/{id}', tags: ['Webhooks'], security, summary: 'Get a webhook',
      request: { params: IdParam },
      responses: { 200: { description: 'The webhook (without its secret)', content: { 'application/json': { schema: WebhookSchema } } }, ...errorResponses(401, 404) },
    }),
    async (c) => c.json(webhookBody(await find(c.get('workspaceId'), c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch', path: '/v2/webhooks/{id}', tags: ['Webhooks'], security, summary: 'Update a webhook',
      description: 'Changes url, events or active. Deliveries already recorded keep going to the webhook\'s current url.',
      request: { params: IdParam, body: jsonBody(WebhookPatchSchema) },
      responses: { 200: { description: 'The updated webhook', content: { 'application/json': { schema: WebhookSchema } } }, ...errorResponses(400, 401, 404) },
    }),
    async (c) => {
      const current = await find(c.get('workspaceId'), c.req.valid('param').id);
      const patch = c.req.valid('json');
      const webhook = await prisma.webhook.update({
        where: { id: current.id },
        data: {
          ...(patch.url !== undefined ? { url: await checkUrl(patch.url) } : {}),
          ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
          ...(patch.active !== undefined ? { active: patch.active } : {}),
        },
      });
      return c.json(webhookBody(webhook), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete', path: '/v2/webhooks/{id}', tags: ['Webhooks'], security, summary: 'Delete a webhook',
      description: 'Its deliveries are deleted with it; attempts still scheduled stop.',
      request: { params: IdParam },
      responses: { 204: { description: 'Deleted' }, ...errorResponses(401, 404) },
    }),
    async (c) => {
      const webhook = await find(c.get('workspaceId'), c.req.valid('param').id);
      await prisma.webhook.delete({ where: { id: webhook.id } });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post', path: '/v2/webhooks/{id}/rotate-secret', tags: ['Webhooks'], security, summary: 'Rotate the signing secret',
      description: 'Generates a new secret and answers with it (shown only here). The old secret stops at once: attempts from now on are signed with the new one.',
      request: { params: IdParam },
      responses: { 200: { description: 'The webhook with its new secret', content: { 'application/json': { schema: WebhookWithSecretSchema } } }, ...errorResponses(401, 404) },
    }),
    async (c) => {
      const current = await find(c.get('workspaceId'), c.req.valid('param').id);
      const secret = generateSecret();
      const webhook = await prisma.webhook.update({ where: { id: current.id }, data: { secret } });
      return c.json({ ...webhookBody(webhook), secret }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/webhooks/{id}/deliveries', tags: ['Webhooks'], security, summary: 'List deliveries and their attempts',
      description: 'Newest first. Each delivery is one event sent to this webhook, with every attempt: time, HTTP status, duration and error.',
      request: {
        params: IdParam,
        query: z.object({
          status: z.enum(['pending', 'delivered', 'failed']).optional(),
          event_type: EventTypeSchema.optional(),
          limit: intParam('limit', 1, 1000, 100),
          offset: intParam('offset', 0, Number.MAX_SAFE_INTEGER, 0),
        }),
      },
      responses: {
        200: {
          description: 'A page of deliveries',
          content: { 'application/json': { schema: z.object({ deliveries: z.array(DeliverySchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }) } },
        },
        ...errorResponses(400, 401, 404),
      },
    }),
    async (c) => {
      const webhook = await find(c.get('workspaceId'), c.req.valid('param').id);
      const { status, event_type, limit, offset } = c.req.valid('query');
      const where = { webhookId: webhook.id, ...(status ? { status } : {}), ...(event_type ? { eventType: event_type } : {}) };
      const [list, total] = await Promise.all([
        prisma.webhookDelivery.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
        prisma.webhookDelivery.count({ where }),
      ]);
      return c.json({ deliveries: list.map(deliveryBody), total, limit, offset }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/webhooks/{id}/deliveries/{delivery_id}', tags: ['Webhooks'], security, summary: 'Get a delivery',
      request: { params: DeliveryParams },
      responses: { 200: { description: 'The delivery and its attempts', content: { 'application/json': { schema: DeliverySchema } } }, ...errorResponses(401, 404) },
    }),
    async (c) => {
      const { id, delivery_id } = c.req.valid('param');
      const webhook = await find(c.get('workspaceId'), id);
      const delivery = await prisma.webhookDelivery.findFirst({ where: { id: delivery_id, webhookId: webhook.id } });
      if (!delivery) throw notFound('Delivery');
      return c.json(deliveryBody(delivery), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post', path: '/v2/webhooks/{id}/deliveries/{delivery_id}/resend', tags: ['Webhooks'], security, summary: 'Resend a delivery',
      description: 'Sends the same event again as a new delivery (same payload and webhook-id, a fresh signature), with its own attempts and retries.',
      request: { params: DeliveryParams },
      responses: { 202: { description: 'The new delivery, pending', content: { 'application/json': { schema: DeliverySchema } } }, ...errorResponses(401, 404, 409, 503) },
    }),
    async (c) => {
      const { id, delivery_id } = c.req.valid('param');
      const workspaceId = c.get('workspaceId');
      const webhook = await find(workspaceId, id);
      const original = await prisma.webhookDelivery.findFirst({ where: { id: delivery_id, webhookId: webhook.id } });
      if (!original) throw notFound('Delivery');
      if (!webhook.active) throw conflict('The webhook is inactive; activate it before resending');
      const now = new Date();
      const delivery = await prisma.webhookDelivery.create({
        data: {
          id: newId('dlv'), webhookId: webhook.id, eventId: original.eventId, eventType: original.eventType,
          payload: original.payload as object, status: 'pending', attempts: [], createdAt: now, updatedAt: now,
        },
      });
      try {
        await startDelivery(delivery.id, workspaceId);
      } catch (error) {
        await prisma.webhookDelivery.delete({ where: { id: delivery.id } }).catch(() => {});
        throw new ApiError(503, `The delivery could not be started: ${(error as Error).message}`);
      }
      return c.json(deliveryBody(delivery), 202);
    },
  );

  return app;
}

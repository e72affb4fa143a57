// Webhooks end to end: real API and worker, Temporal, Postgres; a local receiver on 127.0.0.1
// (WEBHOOK_ALLOW_PRIVATE=true in the test stack). Retries are shortened to 300 ms.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client, Connection } from '@temporalio/client';
import { createEventActivities } from '../../activities/events.js';
import { verify } from '../../activities/webhooks/signing.js';
import { createDatabase, type Database } from '../../lib/db.js';
import { statusEntry } from '../../lib/status.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { ApiClient, fileForm } from '../helpers/http.js';
import { startReceiver, type Receiver, type ReceivedRequest } from '../helpers/receiver.js';
import { temporalClient } from '../helpers/temporal.js';

const ALL_EVENTS = ['extraction.completed', 'extraction.failed', 'flow_run.completed', 'flow_run.failed', 'flow_run.review_requested'];
const TEMPLATE = { name: 'People', tables: [{ key: 'people', name: 'People', columns: [{ name: 'Name' }, { name: 'Email' }] }] };
const CSV = 'Name,Email\nAnn,ann@example.com\nBob,bob@example.com\n';

let app: TestApp;
let db: Database;
let temporal: Client;
let connection: Connection;
const receivers: Receiver[] = [];

async function receiver(answer: Parameters<typeof startReceiver>[0] = 200): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

async function workspace(name: string) {
  const { workspaceId, key } = await app.workspace(name);
  const api = new ApiClient(app.url, key, { validate: true });
  const template = await api.post('/v2/templates', TEMPLATE);
  assert.equal(template.status, 201, template.text);
  return { workspaceId, api, templateId: template.body.id as string };
}

async function hook(api: ApiClient, url: string, events?: string[]) {
  const res = await api.post('/v2/webhooks', { url, ...(events ? { events } : {}) });
  assert.equal(res.status, 201, res.text);
  return res.body as { id: string; secret: string };
}

async function upload(api: ApiClient, templateId: string, name: string, content: string, fields: Record<string, string> = {}) {
  const res = await api.upload('/v2/extractions/upload', fileForm({ template_id: templateId, ...fields }, { name, content }));
  assert.equal(res.status, 202, res.text);
  return res.body.id as string;
}

function header(r: ReceivedRequest, name: string): string {
  return String(r.headers[name] ?? '');
}

function signedBy(r: ReceivedRequest, secret: string): boolean {
  return verify({ 'webhook-id': header(r, 'webhook-id'), 'webhook-timestamp': header(r, 'webhook-timestamp'), 'webhook-signature': header(r, 'webhook-signature') }, r.body, secret).ok;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function deliveries(api: ApiClient, webhookId: string) {
  const res = await api.get(`/v2/webhooks/${webhookId}/deliveries`);
  assert.equal(res.status, 200, res.text);
  return res.body.deliveries as any[];
}

async function waitForDeliveries(api: ApiClient, webhookId: string, predicate: (list: any[]) => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await deliveries(api, webhookId);
    if (predicate(list)) return list;
    if (Date.now() > deadline) throw new Error(`deliveries never matched: ${JSON.stringify(list.map((d) => [d.status, d.attempts]))}`);
    await sleep(150);
  }
}

before(async () => {
  app = await startApp({ WEBHOOK_RETRY_INITIAL_MS: '300', WEBHOOK_TIMEOUT_MS: '1500' });
  db = createDatabase(process.env.DATABASE_URL!, 2);
  ({ connection, client: temporal } = await temporalClient());
});

after(async () => {
  for (const r of receivers) await r.close();
  await connection?.close();
  await db?.close();
  await app?.stop();
});

describe('webhook configuration', () => {
  it('creates with a secret shown once, lists, reads, updates, rotates and deletes', async () => {
    const { api } = await workspace('config');
    const other = (await workspace('config-other')).api;
    const created = await api.post('/v2/webhooks', { url: 'http://127.0.0.1:9/hook' });
    assert.equal(created.status, 201, created.text);
    const { id, secret } = created.body;
    assert.match(id, /^whk_/);
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.ok(Buffer.from(secret.slice(6), 'base64').length >= 24);
    assert.deepEqual(created.body.events, ALL_EVENTS);
    assert.equal(created.body.active, true);

    const got = await api.get(`/v2/webhooks/${id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.secret, undefined, 'the secret is shown only on create and rotate');
    assert.deepEqual((await api.get('/v2/webhooks')).body.webhooks.map((w: any) => w.id), [id]);

    const patched = await api.patch(`/v2/webhooks/${id}`, { events: ['extraction.failed', 'extraction.failed'], active: false });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.events, ['extraction.failed']);
    assert.equal(patched.body.active, false);

    const rotated = await api.post(`/v2/webhooks/${id}/rotate-secret`);
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.secret, /^whsec_/);
    assert.notEqual(rotated.body.secret, secret);

    // Other workspaces see nothing.
    assert.equal((await other.get(`/v2/webhooks/${id}`)).status, 404);
    assert.equal((await other.patch(`/v2/webhooks/${id}`, { active: true })).status, 404);
    assert.equal((await other.delete(`/v2/webhooks/${id}`)).status, 404);
    assert.equal((await other.get(`/v2/webhooks/${id}/deliveries`)).status, 404);
    assert.deepEqual((await other.get('/v2/webhooks')).body.webhooks, []);

    assert.equal((await api.delete(`/v2/webhooks/${id}`)).status, 204);
    assert.deepEqual((await api.get(`/v2/webhooks/${id}`)).body, { error: 'Webhook not found' });
  });

  it('refuses invalid URLs and event names with a 400 naming the parameter', async () => {
    const { api } = await workspace('config-invalid');
    const cases: [unknown, RegExp][] = [
      [{ url: 'ftp://example.com/x' }, /The parameter 'url' is invalid: The webhook URL must use http or https/],
      [{ url: 'not a url' }, /The parameter 'url' is invalid/],
      [{}, /The parameter 'url'/],
      [{ url: 'http://127.0.0.1:9/', events: ['extraction.started'] }, /The parameter 'events.0' is invalid/],
      [{ url: 'http://127.0.0.1:9/', events: [] }, /The parameter 'events' is invalid/],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('/v2/webhooks', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.error, message);
    }
  });
});

describe('webhook delivery', () => {
  it('sends each event once, signed, with the extraction summary and metadata; honours event filters', async () => {
    const { api, templateId } = await workspace('events');
    const all = await receiver(200);
    const failedOnly = await receiver(200);
    const everything = await hook(api, all.url);
    const failures = await hook(api, failedOnly.url, ['extraction.failed']);

    const good = await upload(api, templateId, 'people.csv', CSV, { metadata: JSON.stringify({ order: 42 }) });
    // template_id=auto with headers no template knows: fails with "No template matches …"
    const bad = await upload(api, 'auto', 'shapes.csv', 'Colour,Shape\nred,round\n');
    assert.equal((await api.waitForExtraction(good)).status, 'completed');
    assert.equal((await api.waitForExtraction(bad)).status, 'failed');

    await all.waitFor((list) => list.length >= 2);
    await failedOnly.waitFor((list) => list.length >= 1);
    await sleep(1500); // longer than a retry interval: nothing more may come
    assert.equal(all.requests.length, 2, 'each event exactly once');
    assert.equal(failedOnly.requests.length, 1);

    const completed = all.requests.find((r) => r.json.type === 'extraction.completed')!;
    const failed = all.requests.find((r) => r.json.type === 'extraction.failed')!;
    assert.ok(completed && failed);
    for (const r of all.requests) {
      assert.ok(signedBy(r, everything.secret), 'valid Standard Webhooks signature');
      assert.equal(header(r, 'webhook-id'), r.json.id);
      assert.equal(header(r, 'content-type'), 'application/json');
      assert.deepEqual(Object.keys(r.json), ['id', 'type', 'created_at', 'data']);
      assert.ok(Math.abs(r.json.created_at - Date.now() / 1000) < 60);
    }
    assert.equal(signedBy(completed, failures.secret), false);
    assert.deepEqual(completed.json.data, {
      id: good, status: 'completed', template_id: templateId, metadata: { order: 42 },
      created_at: completed.json.data.created_at, updated_at: completed.json.data.updated_at,
      file_info: { file_name: 'people.csv', file_type: 'csv' },
    });
    assert.equal(failed.json.data.id, bad);
    assert.equal(failed.json.data.status, 'failed');
    assert.equal(failed.json.data.metadata, null);
    assert.ok(failed.json.data.error.length > 5);
    assert.equal(failedOnly.requests[0]!.json.type, 'extraction.failed');
    assert.ok(signedBy(failedOnly.requests[0]!, failures.secret));

    const list = await deliveries(api, everything.id);
    assert.equal(list.length, 2);
    for (const d of list) {
      assert.equal(d.status, 'delivered');
      assert.equal(d.error, null);
      assert.equal(d.attempts.length, 1);
      assert.equal(d.attempts[0].attempt, 1);
      assert.equal(d.attempts[0].status_code, 200);
      assert.ok(d.attempts[0].time > 0);
    }
    const filtered = await api.get(`/v2/webhooks/${everything.id}/deliveries?event_type=extraction.failed`);
    assert.deepEqual(filtered.body.deliveries.map((d: any) => d.event_id), [failed.json.id]);
    const one = await api.get(`/v2/webhooks/${everything.id}/deliveries/${list[0].id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, list[0]);
  });

  it('retries after 500s with backoff, records every attempt, and resends with a rotated secret', async () => {
    const { api, templateId } = await workspace('retries');
    const r = await receiver(({ n }) => (n <= 2 ? 500 : 200));
    const { id, secret } = await hook(api, r.url, ['extraction.completed']);
    const extraction = await upload(api, templateId, 'people.csv', CSV);
    assert.equal((await api.waitForExtraction(extraction)).status, 'completed');

    await r.waitFor((list) => list.length >= 3, 20_000);
    const [first, second, third] = r.requests as [ReceivedRequest, ReceivedRequest, ReceivedRequest];
    assert.deepEqual(r.requests.map((q) => q.answered), [500, 500, 200]);
    for (const q of r.requests) {
      assert.equal(header(q, 'webhook-id'), header(first, 'webhook-id'), 'the same message id on every attempt');
      assert.equal(q.body, first.body);
      assert.ok(signedBy(q, secret));
    }
    // Temporal never retries early: the first retry waits the initial 300 ms, the second twice
    // that (backoff coefficient 2). Either may come late on a busy machine, so each gap is held to
    // its own schedule (50 ms for the receiver's clock), not to the other gap.
    assert.ok(second.at - first.at >= 300 - 50, `first retry after ${second.at - first.at} ms`);
    assert.ok(third.at - second.at >= 2 * 300 - 50, `second retry after ${third.at - second.at} ms: backoff doubles the wait`);

    const [delivery] = await waitForDeliveries(api, id, (list) => list[0]?.status === 'delivered');
    assert.deepEqual(delivery.attempts.map((a: any) => [a.attempt, a.status_code]), [[1, 500], [2, 500], [3, 200]]);
    assert.match(delivery.attempts[0].error, /^HTTP 500/);
    assert.equal(delivery.attempts[2].error, null);
    assert.equal(delivery.error, null);

    // Rotate, then resend: same event and webhook-id, a new delivery, signed with the new secret.
    const rotated = (await api.post(`/v2/webhooks/${id}/rotate-secret`)).body.secret as string;
    const resent = await api.post(`/v2/webhooks/${id}/deliveries/${delivery.id}/resend`);
    assert.equal(resent.status, 202, resent.text);
    assert.equal(resent.body.status, 'pending');
    assert.notEqual(resent.body.id, delivery.id);
    assert.equal(resent.body.event_id, delivery.event_id);
    assert.deepEqual(resent.body.attempts, []);
    await r.waitFor((list) => list.length >= 4);
    const fourth = r.requests[3]!;
    assert.equal(header(fourth, 'webhook-id'), delivery.event_id);
    assert.equal(fourth.body, first.body);
    assert.ok(signedBy(fourth, rotated));
    assert.equal(signedBy(fourth, secret), false);
    const after = await waitForDeliveries(api, id, (list) => list.length === 2 && list.every((d) => d.status === 'delivered'));
    assert.equal(after[0].id, resent.body.id, 'newest first');

    assert.equal((await api.post(`/v2/webhooks/${id}/deliveries/dlv_nope/resend`)).status, 404);
    await api.patch(`/v2/webhooks/${id}`, { active: false });
    const inactive = await api.post(`/v2/webhooks/${id}/deliveries/${delivery.id}/resend`);
    assert.equal(inactive.status, 409);
    assert.match(inactive.body.error, /inactive/);
  });

  it('stops at a 4xx other than 408/429 and retries 429', async () => {
    const { api, templateId } = await workspace('rejects');
    const rejecting = await receiver(410);
    const limited = await receiver(({ n }) => (n === 1 ? 429 : 204));
    const rejected = await hook(api, rejecting.url, ['extraction.completed']);
    const throttled = await hook(api, limited.url, ['extraction.completed']);
    const extraction = await upload(api, templateId, 'people.csv', CSV);
    assert.equal((await api.waitForExtraction(extraction)).status, 'completed');

    const [failed] = await waitForDeliveries(api, rejected.id, (list) => list[0]?.status === 'failed');
    assert.equal(failed.attempts.length, 1);
    assert.equal(failed.attempts[0].status_code, 410);
    assert.match(failed.error, /^HTTP 410/);
    const [ok] = await waitForDeliveries(api, throttled.id, (list) => list[0]?.status === 'delivered');
    assert.deepEqual(ok.attempts.map((a: any) => a.status_code), [429, 204]);
    await sleep(1200);
    assert.equal(rejecting.requests.length, 1, 'no retry after a 410');
    const workflow = await temporal.workflow.getHandle(`webhook-${failed.id}`).describe();
    assert.equal(workflow.status.name, 'FAILED');
  });

  it('a hanging or dead receiver does not delay the extraction', async () => {
    // Baseline: the same upload with no webhooks.
    const quiet = await workspace('no-hooks');
    const t0 = Date.now();
    const baselineId = await upload(quiet.api, quiet.templateId, 'people.csv', CSV);
    await temporal.workflow.getHandle(`extraction-${baselineId}`).result();
    const baseline = Date.now() - t0;

    const { api, templateId } = await workspace('slow-hooks');
    const hanging = await receiver('hang');
    const dead = await receiver(200);
    const deadUrl = dead.url;
    await dead.close();
    const slowHook = await hook(api, hanging.url);
    const deadHook = await hook(api, deadUrl);

    const t1 = Date.now();
    const id = await upload(api, templateId, 'people.csv', CSV);
    await temporal.workflow.getHandle(`extraction-${id}`).result();
    const withHooks = Date.now() - t1;
    assert.ok(withHooks < baseline + 5000, `extraction took ${withHooks} ms with unreachable receivers vs ${baseline} ms without`);
    assert.equal((await api.get(`/v2/extractions/${id}`)).body.status, 'completed');

    // The deliveries are still going on after the extraction's workflow has closed.
    const [slow] = await deliveries(api, slowHook.id);
    assert.equal(slow.status, 'pending');
    const described = await temporal.workflow.getHandle(`webhook-${slow.id}`).describe();
    assert.equal(described.status.name, 'RUNNING');
    const [deadDelivery] = await waitForDeliveries(api, deadHook.id, (list) => (list[0]?.attempts.length ?? 0) >= 2);
    assert.equal(deadDelivery.status, 'pending');
    assert.equal(deadDelivery.attempts[0].status_code, null);
    assert.match(deadDelivery.attempts[0].error, /ECONNREFUSED/);
    assert.match(deadDelivery.error, /ECONNREFUSED/);
    await hanging.waitFor((list) => list.length >= 1);
    const [slowLater] = await waitForDeliveries(api, slowHook.id, (list) => (list[0]?.attempts.length ?? 0) >= 1);
    assert.match(slowLater.attempts[0].error, /no answer within 1500 ms/);

    // Deleting the webhooks ends their deliveries at the next attempt.
    assert.equal((await api.delete(`/v2/webhooks/${slowHook.id}`)).status, 204);
    assert.equal((await api.delete(`/v2/webhooks/${deadHook.id}`)).status, 204);
    await assert.rejects(temporal.workflow.getHandle(`webhook-${deadDelivery.id}`).result(), /failed/i);
  });

  it('sends flow_run.review_requested and flow_run.completed from a real flow run, with its metadata', async () => {
    const { api } = await workspace('flow-run-hooks');
    const r = await receiver(200);
    const { secret } = await hook(api, r.url, ['flow_run.completed', 'flow_run.failed', 'flow_run.review_requested']);
    const flow = await api.post('/v2/flows', { name: 'Held', steps: [{ id: 'hold', title: 'Hold', type: 'review', order: 1 }] });
    assert.equal(flow.status, 201, flow.text);
    const started = await api.upload(`/v2/flows/${flow.body.id}/run`, fileForm({ metadata: JSON.stringify({ ticket: 'T-42' }) }));
    assert.equal(started.status, 202, started.text);
    const runId = started.body.id as string;
    const [requested] = await r.waitFor((list) => list.length >= 1);
    assert.equal(requested!.json.type, 'flow_run.review_requested');
    assert.equal(requested!.json.data.id, runId);
    assert.equal(requested!.json.data.status, 'review');
    assert.deepEqual(requested!.json.data.metadata, { ticket: 'T-42' });
    const approved = await api.post(`/v2/flows/runs/${runId}/review`, { decision: 'approve' });
    assert.equal(approved.status, 200, approved.text);
    await r.waitFor((list) => list.length >= 2);
    await sleep(1000);
    assert.deepEqual(r.requests.map((q) => q.json.type), ['flow_run.review_requested', 'flow_run.completed']);
    const completed = r.requests[1]!;
    assert.ok(signedBy(completed, secret));
    assert.equal(completed.json.data.status, 'completed');
    assert.deepEqual(completed.json.data.metadata, { ticket: 'T-42' });
    assert.ok(completed.json.data.end_time >= completed.json.data.start_time);
    assert.notEqual(completed.json.id, requested!.json.id, 'one event id per event');
  });

  it('publishes flow-run events with the run base form and its metadata', async () => {
    const { api, workspaceId } = await workspace('flow-events');
    const r = await receiver(200);
    const { secret } = await hook(api, r.url, ['flow_run.review_requested']);
    const now = new Date();
    const runId = `run_webhooktest${Date.now()}`;
    await db.prisma.flowRun.create({
      data: {
        id: runId, flowId: 'flow_x', workspaceId, status: 'review', triggerMethod: 'api', startTime: now, metadata: { ticket: 'T-9' },
        statusHistory: [statusEntry('processing', 'Flow started via api', now), statusEntry('review', 'Waiting for review', now)] as object[],
        flow: {}, createdAt: now, updatedAt: now,
      },
    });
    const events = createEventActivities({ db, config: { allowPrivate: true, retryInitialMs: 300, attemptTimeoutMs: 1500 } });
    const published = await events.publishFlowRunEvent({ runId, type: 'flow_run.review_requested', eventId: 'evt_flowtest1', createdAt: 1735689600 });
    assert.equal(published.deliveryIds.length, 1);
    // Publishing again (an activity retry) records nothing new.
    const again = await events.publishFlowRunEvent({ runId, type: 'flow_run.review_requested', eventId: 'evt_flowtest1', createdAt: 1735689600 });
    assert.deepEqual(again.deliveryIds, published.deliveryIds);
    assert.equal(await db.prisma.webhookDelivery.count({ where: { eventId: 'evt_flowtest1' } }), 1);
    assert.deepEqual((await events.publishFlowRunEvent({ runId, type: 'flow_run.completed', eventId: 'evt_flowtest2', createdAt: 1735689600 })).deliveryIds, []);

    await temporal.workflow.start('webhookDeliveryWorkflow', {
      workflowId: `webhook-${published.deliveryIds[0]}`,
      taskQueue: process.env.TEMPORAL_TASK_QUEUE!,
      args: [{ deliveryId: published.deliveryIds[0], retryInitialMs: 300, attemptTimeoutMs: 1500 }],
    });
    const [got] = await r.waitFor((list) => list.length >= 1);
    assert.ok(signedBy(got!, secret));
    assert.equal(got!.json.type, 'flow_run.review_requested');
    assert.equal(got!.json.id, 'evt_flowtest1');
    const data = got!.json.data;
    assert.equal(data.id, runId);
    assert.equal(data.status, 'review');
    assert.deepEqual(data.metadata, { ticket: 'T-9' });
    assert.equal(data.trigger_method, 'api');
    assert.equal(data.end_time, null);
    assert.equal(data.duration, 0);
    assert.deepEqual(data.drive_files, {});
    assert.equal(data.status_history[0].message, 'Flow started via api');
  });
});

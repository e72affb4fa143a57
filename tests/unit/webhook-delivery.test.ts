// The HTTP attempt and what its answer means, against a local server (loopback allowed here,
// as WEBHOOK_ALLOW_PRIVATE=true does in the test stack) and the guard (no traffic when refused).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { outcomeOf, postWebhook } from '../../activities/webhooks/post.js';
import { buildEvent, deliveryIdFor } from '../../activities/webhooks/payload.js';
import { eventBody } from '../../activities/webhooks.js';
import { signedHeaders, verify } from '../../activities/webhooks/signing.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

describe('webhook delivery attempt', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver(200);
  });
  after(async () => {
    await receiver.close();
  });

  it('maps status codes to outcomes', () => {
    assert.equal(outcomeOf(200), 'delivered');
    assert.equal(outcomeOf(204), 'delivered');
    assert.equal(outcomeOf(301), 'retry');
    assert.equal(outcomeOf(400), 'stop');
    assert.equal(outcomeOf(404), 'stop');
    assert.equal(outcomeOf(410), 'stop');
    assert.equal(outcomeOf(408), 'retry');
    assert.equal(outcomeOf(429), 'retry');
    assert.equal(outcomeOf(500), 'retry');
    assert.equal(outcomeOf(503), 'retry');
    assert.equal(outcomeOf(null), 'retry');
  });

  it('posts the signed body and reports the answer', async () => {
    const body = eventBody({ data: { a: 1 }, created_at: 5, type: 'extraction.completed', id: 'evt_1' });
    assert.equal(body, '{"id":"evt_1","type":"extraction.completed","created_at":5,"data":{"a":1}}');
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const headers = signedHeaders({ id: 'evt_1', timestamp: Math.floor(Date.now() / 1000), body, secret });
    const result = await postWebhook({ url: receiver.url, headers, body, timeoutMs: 5000, allowPrivate: true });
    assert.equal(result.statusCode, 200);
    assert.equal(result.error, null);
    const got = receiver.requests.at(-1)!;
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.body, body);
    assert.deepEqual(verify(got.headers as Record<string, string>, got.body, secret), { ok: true });
  });

  it('reports errors with the status and an excerpt of the answer', async () => {
    receiver.respond(503);
    const result = await postWebhook({ url: receiver.url, headers: {}, body: '{}', timeoutMs: 5000, allowPrivate: true });
    assert.equal(result.statusCode, 503);
    assert.match(result.error!, /^HTTP 503: answered 503/);
    receiver.respond(200);
  });

  it('gives up on a receiver that does not answer within the deadline', async () => {
    receiver.respond('hang');
    const result = await postWebhook({ url: receiver.url, headers: {}, body: '{}', timeoutMs: 300, allowPrivate: true });
    assert.equal(result.statusCode, null);
    assert.match(result.error!, /no answer within 300 ms/);
    assert.ok(result.durationMs < 2000);
    receiver.respond(200);
  });

  it('reports a refused connection', async () => {
    const closed = await startReceiver(200);
    const url = closed.url;
    await closed.close();
    const result = await postWebhook({ url, headers: {}, body: '{}', timeoutMs: 2000, allowPrivate: true });
    assert.equal(result.statusCode, null);
    assert.match(result.error!, /ECONNREFUSED/);
  });

  it('refuses loopback receivers unless private addresses are allowed, without sending', async () => {
    const before = receiver.requests.length;
    const result = await postWebhook({ url: receiver.url, headers: {}, body: '{}', timeoutMs: 2000, allowPrivate: false });
    assert.equal(result.refused, true);
    assert.match(result.error!, /private or loopback/);
    const named = await postWebhook({
      url: 'http://hooks.example.test/x', headers: {}, body: '{}', timeoutMs: 2000, allowPrivate: false,
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    assert.equal(named.statusCode, null);
    assert.match(named.error!, /private or loopback/);
    assert.equal(receiver.requests.length, before);
  });
});

describe('webhook payloads', () => {
  it('derives one stable delivery id per event and webhook', () => {
    assert.equal(deliveryIdFor('evt_1', 'whk_1'), deliveryIdFor('evt_1', 'whk_1'));
    assert.notEqual(deliveryIdFor('evt_1', 'whk_1'), deliveryIdFor('evt_1', 'whk_2'));
    assert.match(deliveryIdFor('evt_1', 'whk_1'), /^dlv_[0-9a-f]{26}$/);
  });

  it('builds {id, type, created_at, data}', () => {
    const event = buildEvent({ id: 'evt_1', type: 'flow_run.completed', createdAt: 1735689601, data: { id: 'run_1', metadata: { order: 7 } } });
    assert.deepEqual(Object.keys(event), ['id', 'type', 'created_at', 'data']);
    assert.equal(event.data.metadata.order, 7);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateSecret, sign, signedHeaders, verify } from '../../activities/webhooks/signing.js';

describe('webhook signing (Standard Webhooks)', () => {
  it('matches the Standard Webhooks reference vector', () => {
    const signature = sign({ id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    assert.equal(signature, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const a = generateSecret();
    const b = generateSecret();
    assert.match(a, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.equal(Buffer.from(a.slice(6), 'base64').length, 32);
    assert.notEqual(a, b);
  });

  it('verifies what it signs and rejects tampering, other secrets and stale timestamps', () => {
    const secret = generateSecret();
    const now = 1_700_000_000;
    const body = JSON.stringify({ id: 'evt_1', type: 'extraction.completed', created_at: now, data: {} });
    const headers = signedHeaders({ id: 'evt_1', timestamp: now, body, secret });
    assert.deepEqual(verify(headers, body, secret, { now }), { ok: true });
    assert.equal(verify(headers, body.replace('completed', 'failed'), secret, { now }).ok, false);
    assert.equal(verify(headers, body, generateSecret(), { now }).ok, false);
    assert.equal(verify({ ...headers, 'webhook-id': 'evt_2' }, body, secret, { now }).ok, false);
    assert.equal(verify(headers, body, secret, { now: now + 301 }).ok, false);
    assert.equal(verify({ ...headers, 'webhook-signature': null }, body, secret, { now }).ok, false);
  });

  it('accepts any one of several space-separated signatures (secret rotation on the receiver side)', () => {
    const secret = generateSecret();
    const body = '{}';
    const headers = signedHeaders({ id: 'evt_1', timestamp: 100, body, secret });
    const multi = { ...headers, 'webhook-signature': `v1,AAAA v2,whatever ${headers['webhook-signature']}` };
    assert.deepEqual(verify(multi, body, secret, { now: 100 }), { ok: true });
  });
});

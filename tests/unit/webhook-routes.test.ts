// The webhook routes refuse private and loopback receivers at configuration time unless
// WEBHOOK_ALLOW_PRIVATE is set. In process, over a stand-in database: nothing is stored or sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createApp } from '../../api/app.js';
import type { AppDeps } from '../../api/context.js';
import { env } from '../../lib/env.js';

function appWith(allowPrivate: boolean) {
  const created: unknown[] = [];
  // The key lookup (plain SQL) finds a live key of one workspace.
  const pool = { query: async () => ({ rows: [{ id: 'key_test', workspace_id: 'ws_test', revoked_at: null }] }) };
  const prisma = {
    webhook: {
      create: async ({ data }: { data: Record<string, unknown> }) => {
        created.push(data);
        return { ...data, createdAt: new Date(), updatedAt: new Date() };
      },
    },
  };
  const app = createApp({ env: { ...env(), WEBHOOK_ALLOW_PRIVATE: allowPrivate }, db: { prisma, pool }, storage: {}, temporal: {} } as unknown as AppDeps);
  const post = (url: string) =>
    app.request('http://api.test/v2/webhooks', {
      method: 'POST',
      headers: { authorization: `Bearer dk_${'a'.repeat(43)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });
  return { post, created };
}

describe('webhook receiver addresses', () => {
  it('refuses loopback, private and link-local receivers by default', async () => {
    const { post, created } = appWith(false);
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://10.0.0.7/hook', 'http://[::1]:9000/', 'http://169.254.169.254/latest', 'http://192.168.1.20/']) {
      const res = await post(url);
      assert.equal(res.status, 400, url);
      const body = (await res.json()) as { error: string };
      assert.match(body.error, /^The parameter 'url' is invalid: .*private or loopback address/, url);
    }
    assert.equal(created.length, 0);
  });

  it('accepts them when WEBHOOK_ALLOW_PRIVATE=true', async () => {
    const { post, created } = appWith(true);
    const res = await post('http://127.0.0.1:8080/hook');
    assert.equal(res.status, 201);
    const body = (await res.json()) as { url: string; secret: string; events: string[] };
    assert.equal(body.url, 'http://127.0.0.1:8080/hook');
    assert.match(body.secret, /^whsec_/);
    assert.equal(body.events.length, 5);
    assert.equal(created.length, 1);
  });
});

// A flow run survives a Temporal server restart in the middle of a step: the run is paused in
// its review step when the server (with its history file) stops and starts again.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { env } from '../../lib/env.js';
import { ensureTemporal, stopChild, type Service } from '../../lib/stack.js';
import { freePort } from '../../lib/test-stack.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { ApiClient, fileForm } from '../helpers/http.js';

let app: TestApp;
let api: ApiClient;
let temporal: Service;
let temporalEnv: ReturnType<typeof env>;
let dataDir: string;

async function waitForStatus(runId: string, status: string, timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/v2/flows/runs/${runId}`);
    if (res.status === 200 && res.body.status === status) return res.body;
    assert.ok(Date.now() < deadline, `run ${runId} did not reach ${status} (last: ${res.status} ${res.body?.status})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'distill-restart-'));
  temporalEnv = { ...env(), TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`, DISTILL_DATA_DIR: dataDir };
  temporal = await ensureTemporal(temporalEnv, { uiPort: await freePort() });
  app = await startApp({ TEMPORAL_ADDRESS: temporalEnv.TEMPORAL_ADDRESS });
  api = new ApiClient(app.url, (await app.workspace('restart')).key);
});

after(async () => {
  await app?.stop();
  await stopChild(temporal?.child);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a Temporal server restart', () => {
  it('does not lose a run paused in a step', async () => {
    const template = await api.post('/v2/templates', { name: 'Orders', tables: [{ key: 'orders', name: 'Orders', columns: [{ name: 'Order ID' }, { name: 'Qty' }] }] });
    const flow = await api.post('/v2/flows', {
      name: 'Orders with sign-off',
      file_input_config: { file_fields: [{ key: 'orders', name: 'Orders', required: true, file_types: ['csv'] }] },
      steps: [
        { id: 'extract', title: 'Extract orders', type: 'extraction', order: 1, config: { template_id: template.body.id, file_key: 'orders' } },
        { id: 'approve', title: 'Approve orders', type: 'review', order: 2 },
      ],
    });
    assert.equal(flow.status, 201, flow.text);
    const form = fileForm({});
    form.append('orders', new Blob(['Order ID,Qty\nA-1,3\nA-2,4\n'], { type: 'text/csv' }), 'orders.csv');
    const run = await api.upload(`/v2/flows/${flow.body.id}/run`, form);
    assert.equal(run.status, 202, run.text);
    await waitForStatus(run.body.id, 'review');

    // Stop the server (history is in its file), start it again on the same address.
    await stopChild(temporal.child);
    const down = await new ApiClient(app.url).get('/healthz');
    assert.equal(down.status, 503);
    assert.match(down.body.error, /temporal/);
    temporal = await ensureTemporal(temporalEnv, { uiPort: await freePort() });

    // The API and worker reconnect by themselves; the paused run takes the decision and ends.
    const deadline = Date.now() + 60_000;
    let review;
    for (;;) {
      review = await api.post(`/v2/flows/runs/${run.body.id}/review`, { decision: 'approve', comment: 'after restart' });
      if (review.status === 200 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    assert.equal(review.status, 200, review.text);
    const done = await waitForStatus(run.body.id, 'completed');
    assert.deepEqual(done.status_history.map((h: any) => h.status), ['processing', 'review', 'processing', 'completed']);
  });
});

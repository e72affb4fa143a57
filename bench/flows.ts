// Flow runs through the HTTP API for a small two-step flow (extraction of a CSV, then a verify
// step): the time from upload to completed for one run, and runs completed per minute when many
// are started at once. bench/run.ts calls benchFlows; prints nothing itself.

const ROWS = 50;
const CONCURRENT_RUNS = Number(process.env.BENCH_FLOW_RUNS ?? 30);

function csv(): string {
  const lines = ['SKU,Description,Amount'];
  for (let i = 1; i <= ROWS; i++) lines.push(`B-${i},Item ${i},${(i * 1.25).toFixed(2)}`);
  return lines.join('\n');
}

async function call(baseUrl: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${key}` } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, init);
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function startRun(baseUrl: string, key: string, flowId: string, content: string): Promise<string> {
  const form = new FormData();
  form.append('lines', new Blob([content], { type: 'text/csv' }), 'lines.csv');
  return (await call(baseUrl, key, 'POST', `/v2/flows/${flowId}/run`, form)).id as string;
}

async function waitCompleted(baseUrl: string, key: string, runId: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await call(baseUrl, key, 'GET', `/v2/flows/runs/${runId}`);
    if (run.status === 'completed') return;
    if (run.status === 'failed') throw new Error(`bench run ${runId} failed: ${run.error}`);
    if (Date.now() > deadline) throw new Error(`bench run ${runId} still ${run.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function benchFlows(baseUrl: string, key: string): Promise<{ runsPerMinute: number; uploadToCompletedSeconds: number }> {
  const template = await call(baseUrl, key, 'POST', '/v2/templates', {
    name: 'Bench flow lines',
    file_types: ['csv'],
    tables: [{ key: 'lines', name: 'Lines', columns: [{ key: 'sku', name: 'SKU' }, { key: 'description', name: 'Description' }, { key: 'amount', name: 'Amount', data_type: 'currency' }] }],
  });
  const flow = await call(baseUrl, key, 'POST', '/v2/flows', {
    name: 'Bench two-step flow',
    file_input_config: { file_fields: [{ key: 'lines', name: 'Lines', required: true, file_types: ['csv'] }] },
    steps: [
      { id: 'extract', title: 'Extract', type: 'extraction', order: 1, config: { template_id: template.id, file_key: 'lines' } },
      { id: 'check', title: 'Check', type: 'verify', order: 2, config: { rules: [{ type: 'row_count_at_least', step_id: 'extract', table_key: 'lines', value: ROWS }] } },
    ],
  });
  const content = csv();

  // Warm up (worker caches, first workflow task of a type), then one run alone.
  await waitCompleted(baseUrl, key, await startRun(baseUrl, key, flow.id, content));
  const single = performance.now();
  await waitCompleted(baseUrl, key, await startRun(baseUrl, key, flow.id, content));
  const uploadToCompletedSeconds = (performance.now() - single) / 1000;

  // Throughput: many runs started at once, until the last one completes.
  const started = performance.now();
  const ids = await Promise.all(Array.from({ length: CONCURRENT_RUNS }, () => startRun(baseUrl, key, flow.id, content)));
  await Promise.all(ids.map((id) => waitCompleted(baseUrl, key, id)));
  const minutes = (performance.now() - started) / 60_000;
  return { runsPerMinute: CONCURRENT_RUNS / minutes, uploadToCompletedSeconds };
}

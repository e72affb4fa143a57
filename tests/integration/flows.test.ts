// Flows end to end: real API and worker processes, real Temporal, Postgres and S3. Definitions,
// runs (extraction children, reconciliation, review by Temporal Update, verify, export),
// reruns, listing, workspace isolation, the run endpoint's refusals, and a worker killed mid-run.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import * as Minio from 'minio';
import { startApp, type TestApp } from '../helpers/app.js';
import { ApiClient } from '../helpers/http.js';
import { temporalClient } from '../helpers/temporal.js';

let app: TestApp;
let api: ApiClient;
let other: ApiClient;
let workspaceA: string;
let invTemplate: string;
let poTemplate: string;

const INVOICE_TEMPLATE = {
  name: 'Invoice lines',
  file_types: ['csv', 'excel'],
  fields: [{ key: 'total', name: 'Invoice total', data_type: 'currency' }],
  tables: [{
    key: 'lines', name: 'Lines',
    columns: [
      { key: 'sku', name: 'SKU', validations: [{ type: 'required' }] },
      { key: 'description', name: 'Description' },
      { key: 'amount', name: 'Amount', data_type: 'currency' },
      { key: 'qty', name: 'Qty', data_type: 'integer' },
    ],
  }],
};
const PO_TEMPLATE = {
  name: 'Purchase order',
  file_types: ['csv'],
  tables: [{
    key: 'items', name: 'Items',
    columns: [
      { key: 'sku', name: 'SKU', suggested_mappings: ['Item code'] },
      { key: 'amount', name: 'Amount', data_type: 'currency', suggested_mappings: ['Price'] },
      { key: 'vendor', name: 'Vendor' },
    ],
  }],
};

// 30 invoice lines S-001..S-030; the PO has S-001..S-025 (S-005 and S-010 off by 2.00, S-015 off
// by 0.004, inside the tolerance) and S-901..S-903: 23 matched, 2 mismatched, 5 + 3 unmatched.
const amount = (i: number) => (i * 1.5).toFixed(2);
function invoiceCsv(lines = 30): string {
  const rows = [`Invoice total,${Array.from({ length: lines }, (_, i) => i * 1.5 + 1.5).reduce((a, b) => a + b, 0).toFixed(2)}`, '', 'SKU,Description,Amount,Qty'];
  for (let i = 1; i <= lines; i++) rows.push(`S-${String(i).padStart(3, '0')},Item ${i},${amount(i)},${i}`);
  return rows.join('\n');
}
function poCsvs(): [string, string] {
  const rows: string[] = [];
  for (let i = 1; i <= 25; i++) {
    const price = i === 5 || i === 10 ? (i * 1.5 + 2).toFixed(2) : i === 15 ? (i * 1.5 + 0.004).toFixed(3) : amount(i);
    rows.push(`S-${String(i).padStart(3, '0')},${price},Acme`);
  }
  for (let i = 901; i <= 903; i++) rows.push(`S-${i},1.00,Other`);
  const header = 'Item code,Price,Vendor';
  return [[header, ...rows.slice(0, 12)].join('\n'), [header, ...rows.slice(12)].join('\n')];
}

function form(parts: Record<string, string | { name: string; content: string | Uint8Array }>): FormData {
  const f = new FormData();
  for (const [key, value] of Object.entries(parts)) {
    if (typeof value === 'string') f.append(key, value);
    else f.append(key, new Blob([value.content as Uint8Array<ArrayBuffer>]), value.name);
  }
  return f;
}

async function createFlow(client: ApiClient, body: unknown): Promise<any> {
  const res = await client.post('/v2/flows', body);
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function run(client: ApiClient, flowId: string, parts: Parameters<typeof form>[0]): Promise<any> {
  const res = await client.upload(`/v2/flows/${flowId}/run`, form(parts));
  assert.equal(res.status, 202, res.text);
  return res.body;
}

async function waitRun(client: ApiClient, id: string, statuses: string[] = ['completed', 'failed'], timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(`/v2/flows/runs/${id}`);
    assert.equal(res.status, 200, res.text);
    if (statuses.includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${id} is ${res.body.status} after ${timeoutMs} ms: ${JSON.stringify(res.body.status_history)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const extractionStep = (id: string, templateId: string, fileKey: string, order: number) => ({ id, title: `Extract ${id}`, type: 'extraction', order, config: { template_id: templateId, file_key: fileKey } });
const invoiceField = { key: 'invoice', name: 'Invoice', required: true, file_types: ['csv', 'excel'] };

before(async () => {
  app = await startApp({ MAX_UPLOAD_BYTES: String(1024 * 1024) });
  const a = await app.workspace('flows-a');
  const b = await app.workspace('flows-b');
  workspaceA = a.workspaceId;
  api = new ApiClient(app.url, a.key);
  other = new ApiClient(app.url, b.key);
  invTemplate = (await api.post('/v2/templates', INVOICE_TEMPLATE)).body.id;
  poTemplate = (await api.post('/v2/templates', PO_TEMPLATE)).body.id;
});

after(async () => {
  await app?.stop();
});

let reconciledRun: any;

describe('flow definitions', () => {
  it('creates, reads, updates and deletes, checking the definition when saved', async () => {
    const flow = await createFlow(api, {
      name: 'Defs', description: 'd',
      file_input_config: { file_fields: [invoiceField] },
      steps: [extractionStep('inv', invTemplate, 'invoice', 1), { title: 'Look', type: 'review' }],
    });
    assert.match(flow.id, /^flow_/);
    assert.equal(flow.workspace_id, workspaceA);
    assert.equal(flow.active, true);
    assert.deepEqual(flow.steps.map((s: any) => [s.type, s.order]), [['extraction', 1], ['review', 2]]);
    assert.match(flow.steps[1].id, /^step_/);
    assert.deepEqual((await api.get(`/v2/flows/${flow.id}`)).body, flow);

    const bad: [unknown, RegExp][] = [
      [{ name: 'x', steps: [{ title: 't', type: 'teleport' }] }, /unknown type 'teleport'/],
      [{ name: 'x', file_input_config: { file_fields: [invoiceField] }, steps: [extractionStep('a', 'tpl_missing', 'invoice', 1)] }, /template 'tpl_missing' was not found/],
      [{ name: 'x', file_input_config: { file_fields: [invoiceField] }, steps: [extractionStep('a', invTemplate, 'nope', 1)] }, /file_key 'nope' is not a file field/],
      [{ name: 'x', steps: [{ title: 'a', type: 'review', order: 1 }, { title: 'b', type: 'review', order: 1 }] }, /orders must be unique/],
      [{ name: 'x', file_input_config: { file_fields: [invoiceField] }, steps: [extractionStep('a', invTemplate, 'invoice', 1), { title: 'm', type: 'reconciliation', order: 2, config: { source_step_id_1: 'a', source_step_id_2: 'a', table_key_1: 'lines', table_key_2: 'nope' } }] }, /table_key_2 'nope' is not a table/],
      [{ name: 'x', file_input_config: { file_fields: [invoiceField] }, steps: [{ title: 'm', type: 'reconciliation', order: 1, config: { source_step_id_1: 'a', source_step_id_2: 'a', table_key_1: 'lines', table_key_2: 'lines' } }, extractionStep('a', invTemplate, 'invoice', 2)] }, /must come before this step/],
      [{ steps: [] }, /name/],
    ];
    for (const [body, message] of bad) {
      const res = await api.post('/v2/flows', body);
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.error, message);
    }

    const patched = await api.patch(`/v2/flows/${flow.id}`, { name: 'Renamed', active: false });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual([patched.body.name, patched.body.active, patched.body.steps], ['Renamed', false, flow.steps]);
    const badPatch = await api.patch(`/v2/flows/${flow.id}`, { steps: [{ title: 'x', type: 'nope' }] });
    assert.equal(badPatch.status, 400);
    assert.equal((await api.delete(`/v2/flows/${flow.id}`)).status, 204);
    assert.deepEqual((await api.get(`/v2/flows/${flow.id}`)).body, { error: 'Flow not found' });
    assert.equal((await api.delete(`/v2/flows/${flow.id}`)).status, 404);
  });
});

describe('a two-extraction + reconciliation flow', () => {
  it('extracts both files as child extractions, reconciles them, verifies, exports a workbook', async () => {
    const flow = await createFlow(api, {
      name: 'Invoice vs PO',
      file_input_config: { file_fields: [invoiceField, { key: 'po', name: 'Purchase orders', required: true, file_types: ['csv'], multiple: true }] },
      steps: [
        extractionStep('inv', invTemplate, 'invoice', 1),
        extractionStep('po', poTemplate, 'po', 2),
        { id: 'match', title: 'Match lines', type: 'reconciliation', order: 3, config: { source_step_id_1: 'inv', source_step_id_2: 'po', table_key_1: 'lines', table_key_2: 'items', match_on: ['sku'], compare: ['amount'], tolerance: 0.01 } },
        { id: 'check', title: 'Check', type: 'verify', order: 4, config: { rules: [
          { type: 'all_rows_valid', step_id: 'inv', table_key: 'lines' },
          { type: 'row_count_at_least', step_id: 'inv', table_key: 'lines', value: 30 },
          { type: 'sum_equals_field', step_id: 'inv', table_key: 'lines', column: 'amount', field: 'total' },
          { type: 'row_count_at_least', step_id: 'match', table_key: 'matched', value: 20 },
        ] } },
        { id: 'xlsx', title: 'Export', type: 'export', order: 5, config: { file_name: 'reconciled.xlsx' } },
      ],
    });
    const [po1, po2] = poCsvs();
    const started = await run(api, flow.id, {
      invoice: { name: 'invoice.csv', content: invoiceCsv() },
      invoice_metadata: '{"source":"erp"}',
      po_1: { name: 'po-a.csv', content: po1 },
      po_2: { name: 'po-b.csv', content: po2 },
      metadata: '{"batch":7}',
      name: 'March close',
    });
    assert.match(started.id, /^run_/);
    assert.deepEqual(
      [started.flow_id, started.workspace_id, started.status, started.trigger_method, started.end_time, started.duration, started.error, started.drive_files, started.metadata, started.name],
      [flow.id, workspaceA, 'processing', 'api', null, 0, null, {}, { batch: 7 }, 'March close'],
    );
    assert.deepEqual(started.status_history.map((h: any) => [h.status, h.message]), [['processing', 'Flow started via api']]);
    assert.equal(typeof started.start_time, 'number');

    const done = await waitRun(api, started.id);
    assert.equal(done.status, 'completed', done.error);
    reconciledRun = done;
    assert.equal(done.error, null);
    assert.ok(done.end_time >= done.start_time);
    assert.ok(done.duration > 0);
    assert.deepEqual(done.status_history.map((h: any) => h.status), ['processing', 'completed']);
    assert.deepEqual([done.current_attempt, done.flow_attempts.length, done.flow_attempts[0].status, done.flow_attempts[0].trigger], [1, 1, 'completed', 'api']);
    assert.deepEqual(done.flow.steps.map((s: any) => s.id), ['inv', 'po', 'match', 'check', 'xlsx']);
    assert.equal(done.flow.name, 'Invoice vs PO');
    assert.deepEqual(done.steps.map((s: any) => [s.step_id, s.status, s.attempt]), [['inv', 'succeeded', 1], ['po', 'succeeded', 1], ['match', 'succeeded', 1], ['check', 'succeeded', 1], ['xlsx', 'succeeded', 1]]);
    for (const s of done.steps) assert.ok(s.ended_at >= s.started_at && s.duration >= 0);

    // Input files with names, types and sizes.
    assert.deepEqual(Object.keys(done.input_files).sort(), ['invoice', 'po']);
    assert.deepEqual(done.input_files.po.map((f: any) => [f.index, f.file_name, f.file_type.key, f.file_size]), [[1, 'po-a.csv', 'csv', po1.length], [2, 'po-b.csv', 'csv', po2.length]]);
    assert.deepEqual(done.input_files.invoice[0].metadata, { source: 'erp' });

    // One child extraction per file, visible in GET /v2/extractions with the per-file metadata.
    const inv = done.steps[0].output.extractions;
    const po = done.steps[1].output.extractions;
    assert.equal(inv.length, 1);
    assert.deepEqual(po.map((e: any) => [e.file_name, e.status]), [['po-a.csv', 'completed'], ['po-b.csv', 'completed']]);
    assert.deepEqual(inv[0].tables.lines, { valid: 30, invalid: 0, total: 30 });
    const listed = (await api.get(`/v2/extractions?template_id=${poTemplate}`)).body.extractions.map((e: any) => e.id);
    for (const e of po) assert.ok(listed.includes(e.extraction_id));
    const invExtraction = (await api.get(`/v2/extractions/${inv[0].extraction_id}`)).body;
    assert.deepEqual([invExtraction.status, invExtraction.metadata, invExtraction.file_name], ['completed', { source: 'erp' }, 'invoice.csv']);

    // The reconciliation output, readable from the run's steps.
    const match = done.steps[2].output;
    assert.deepEqual(match.summary, { rows_1: 30, rows_2: 28, matched: 23, mismatched: 2, unmatched_1: 5, unmatched_2: 3 });
    assert.deepEqual(match.mismatched.map((m: any) => [m.key.sku, m.differences[0].value_1, m.differences[0].value_2, m.differences[0].difference]), [['S-005', '7.50', '9.50', 2], ['S-010', '15.00', '17.00', 2]]);
    assert.deepEqual(match.unmatched_1.map((r: any) => r.values.sku), ['S-026', 'S-027', 'S-028', 'S-029', 'S-030']);
    assert.deepEqual(match.unmatched_2.map((r: any) => [r.values.sku, r.file_name]), [['S-901', 'po-b.csv'], ['S-902', 'po-b.csv'], ['S-903', 'po-b.csv']]);
    assert.ok(match.matched.some((m: any) => m.key.sku === 'S-015'));
    assert.equal(match.truncated, false);
    assert.deepEqual(done.steps[3].output.rules.map((r: any) => r.passed), [true, true, true, true]);

    // The export: drive_files entry, downloadable workbook with a sheet per table.
    const drive = done.drive_files.xlsx;
    assert.equal(drive.mime_type, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    assert.deepEqual(drive.sheets.map((s: any) => s.title), ['Extract inv - Lines', 'Extract po - Items', 'Match lines']);
    assert.deepEqual(drive.sheets.map((s: any) => s.sheet_id), [1, 2, 3]);
    const download = await fetch(`${app.url}/v2/flows/runs/${done.id}/files/${drive.file_id}`, { headers: { authorization: `Bearer ${api.key}` } });
    assert.equal(download.status, 200);
    assert.match(download.headers.get('content-disposition') ?? '', /reconciled\.xlsx/);
    const workbook = XLSX.read(Buffer.from(await download.arrayBuffer()));
    assert.deepEqual(workbook.SheetNames, ['Extract inv - Lines', 'Extract po - Items', 'Match lines']);
    const sheet = (name: string) => XLSX.utils.sheet_to_json<string[]>(workbook.Sheets[name]!, { header: 1 });
    assert.deepEqual(sheet('Extract inv - Lines')[0], ['SKU', 'Description', 'Amount', 'Qty']);
    assert.equal(sheet('Extract inv - Lines').length, 31);
    assert.deepEqual(sheet('Extract po - Items')[0], ['File', 'SKU', 'Amount', 'Vendor']);
    assert.equal(sheet('Extract po - Items').length, 29);
    const matchRows = sheet('Match lines');
    assert.equal(matchRows.length, 1 + 23 + 2 + 5 + 3);
    assert.equal(matchRows.filter((r) => r[0] === 'mismatched').length, 2);
    assert.equal((await api.get(`/v2/flows/runs/${done.id}/files/file_nope`)).status, 404);

    // Temporal: a readable workflow id and search attributes an operator can filter on.
    const { connection, client } = await temporalClient();
    try {
      const description = await client.workflow.getHandle(`flow-run-${done.id}`).describe();
      const attrs = description.searchAttributes as Record<string, unknown[]>;
      assert.deepEqual([attrs.DistillWorkspace, attrs.DistillFlow, attrs.DistillStatus, attrs.DistillKind], [[workspaceA], [flow.id], ['completed'], ['flow_run']]);
      assert.equal(description.status.name, 'COMPLETED');
      const child = await client.workflow.getHandle(`extraction-${inv[0].extraction_id}`).describe();
      assert.equal(child.parentExecution?.workflowId, `flow-run-${done.id}`);
    } finally {
      await connection.close();
    }
  });

  it('runs from the command line with trigger_method manual', async () => {
    const flow = await createFlow(api, { name: 'CLI', file_input_config: { file_fields: [invoiceField] }, steps: [extractionStep('inv', invTemplate, 'invoice', 1)] });
    const dir = mkdtempSync(join(tmpdir(), 'flows-cli-'));
    writeFileSync(join(dir, 'inv.csv'), invoiceCsv(3));
    const out = JSON.parse(await app.cli('flow', 'run', flow.id, '--file', `invoice=${join(dir, 'inv.csv')}`, '--metadata', '{"via":"cli"}', '--name', 'From CLI'));
    assert.deepEqual([out.status, out.trigger_method, out.name, out.metadata, out.end_time, out.duration], ['processing', 'manual', 'From CLI', { via: 'cli' }, null, 0]);
    assert.equal(out.status_history[0].message, 'Flow started via manual');
    const done = await waitRun(api, out.id);
    assert.equal(done.status, 'completed', done.error);
    assert.equal(done.steps[0].output.extractions[0].tables.lines.total, 3);
    await assert.rejects(app.cli('flow', 'run', flow.id), /required/);
  });
});

describe('review', () => {
  let flowId: string;
  before(async () => {
    flowId = (await createFlow(api, {
      name: 'Reviewed',
      file_input_config: { file_fields: [invoiceField] },
      steps: [
        extractionStep('inv', invTemplate, 'invoice', 1),
        { id: 'approve', title: 'Approve totals', type: 'review', order: 2, config: { instructions: 'Check the totals' } },
        { id: 'count', title: 'Count', type: 'verify', order: 3, config: { rules: [{ type: 'row_count_at_least', step_id: 'inv', table_key: 'lines', value: 1 }] } },
      ],
    })).id;
  });

  it('refuses a decision for a run that is not waiting (409)', async () => {
    const res = await api.post(`/v2/flows/runs/${reconciledRun.id}/review`, { decision: 'approve' });
    assert.equal(res.status, 409);
    assert.equal(res.body.error, 'Flow run is completed; it is not waiting for review');
  });

  it('pauses in review and continues when approved', async () => {
    const started = await run(api, flowId, { invoice: { name: 'i.csv', content: invoiceCsv(4) } });
    const waiting = await waitRun(api, started.id, ['review', 'failed', 'completed']);
    assert.equal(waiting.status, 'review');
    assert.equal(waiting.status_history.at(-1).message, "Waiting for review at step 'Approve totals'");
    assert.deepEqual(waiting.steps.map((s: any) => [s.step_id, s.status]), [['inv', 'succeeded'], ['approve', 'waiting_review']]);
    assert.equal((await api.get('/v2/flows/runs?status=review')).body.flow_runs.some((r: any) => r.id === started.id), true);
    const invalid = await api.post(`/v2/flows/runs/${started.id}/review`, { decision: 'maybe' });
    assert.equal(invalid.status, 400);

    const res = await api.post(`/v2/flows/runs/${started.id}/review`, { decision: 'approve', comment: 'Looks right' });
    assert.equal(res.status, 200, res.text);
    assert.notEqual(res.body.status, 'review');
    const review = res.body.steps.find((s: any) => s.step_id === 'approve').output;
    assert.equal(review.decision, 'approve');
    assert.equal(review.comment, 'Looks right');
    assert.equal(review.reviewer.workspace_id, workspaceA);
    assert.match(review.reviewer.api_key_id, /^key_/);
    assert.equal(typeof review.decided_at, 'number');
    assert.equal(review.instructions, 'Check the totals');

    const done = await waitRun(api, started.id);
    assert.equal(done.status, 'completed', done.error);
    assert.deepEqual(done.status_history.map((h: any) => h.status), ['processing', 'review', 'processing', 'completed']);
    assert.match(done.status_history[2].message, /Review approved at step 'Approve totals': Looks right/);
    const again = await api.post(`/v2/flows/runs/${started.id}/review`, { decision: 'reject' });
    assert.equal(again.status, 409);
  });

  it('fails the run with the comment when rejected', async () => {
    const started = await run(api, flowId, { invoice: { name: 'i.csv', content: invoiceCsv(2) } });
    await waitRun(api, started.id, ['review']);
    const res = await api.post(`/v2/flows/runs/${started.id}/review`, { decision: 'reject', comment: 'Totals do not match the PO' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.error, "Review rejected at step 'Approve totals': Totals do not match the PO");
    assert.equal(res.body.status_history.at(-1).message, res.body.error);
    assert.ok(res.body.end_time !== null && res.body.duration > 0);
    assert.deepEqual(res.body.steps.map((s: any) => [s.step_id, s.status]), [['inv', 'succeeded'], ['approve', 'failed']]);
    assert.equal(res.body.steps[1].output.decision, 'reject');
  });
  it('decides by itself when the review times out (on_timeout approve or reject)', async () => {
    const timed = async (onTimeout: string) => (await createFlow(api, { name: `Timed ${onTimeout}`, steps: [{ id: 't', title: 'Quick look', type: 'review', config: { timeout_seconds: 1, on_timeout: onTimeout } }] })).id;
    const [approved, rejected] = await Promise.all([timed('approve'), timed('reject')].map(async (f) => waitRun(api, (await run(api, await f, {})).id)));
    assert.equal(approved!.status, 'completed', approved!.error);
    assert.deepEqual([approved!.steps[0].output.timed_out, approved!.steps[0].output.decision, approved!.steps[0].output.reviewer], [true, 'approve', null]);
    assert.equal(rejected!.status, 'failed');
    assert.equal(rejected!.error, "Review rejected at step 'Quick look': No review decision within 1 seconds");
  });
});

describe('failures and reruns', () => {
  it('fails a verify step with a message naming the rule', async () => {
    const flow = await createFlow(api, {
      name: 'Verify',
      file_input_config: { file_fields: [invoiceField] },
      steps: [
        extractionStep('inv', invTemplate, 'invoice', 1),
        { id: 'v', title: 'Enough lines', type: 'verify', order: 2, config: { rules: [
          { type: 'row_count_at_least', step_id: 'inv', table_key: 'lines', value: 1 },
          { type: 'row_count_at_least', step_id: 'inv', table_key: 'lines', value: 100, name: 'At least 100 lines' },
        ] } },
      ],
    });
    const done = await waitRun(api, (await run(api, flow.id, { invoice: { name: 'i.csv', content: invoiceCsv(3) } })).id);
    assert.equal(done.status, 'failed');
    assert.equal(done.error, "Verify rule 2 'row_count_at_least' (At least 100 lines) failed: inv.lines has 3 row(s), expected at least 100");
    assert.deepEqual(done.status_history.at(-1), { status: 'failed', time: done.status_history.at(-1).time, message: done.error });
    const verify = done.steps.find((s: any) => s.step_id === 'v');
    assert.deepEqual([verify.status, verify.error, verify.output.rules.map((r: any) => r.passed)], ['failed', done.error, [true, false]]);
    // The execution fails too (after its failure webhook), so the Web UI shows what the API shows.
    const { connection, client } = await temporalClient();
    try {
      const handle = client.workflow.getHandle(`flow-run-${done.id}`);
      await assert.rejects(handle.result(), (e: Error) => /Verify rule 2/.test(String((e as { cause?: Error }).cause?.message)));
      assert.equal((await handle.describe()).status.name, 'FAILED');
    } finally {
      await connection.close();
    }
  });

  it('reruns a failed run: the succeeded step is reused, the failed one and the rest run', async () => {
    const doomed = (await api.post('/v2/templates', { ...PO_TEMPLATE, name: 'Doomed PO' })).body.id;
    const flow = await createFlow(api, {
      name: 'Rerun',
      file_input_config: { file_fields: [invoiceField, { key: 'po', name: 'PO', required: true, file_types: ['csv'] }] },
      steps: [
        extractionStep('inv', invTemplate, 'invoice', 1),
        extractionStep('po', doomed, 'po', 2),
        { id: 'match', title: 'Match', type: 'reconciliation', order: 3, config: { source_step_id_1: 'inv', source_step_id_2: 'po', table_key_1: 'lines', table_key_2: 'items' } },
      ],
    });
    assert.equal((await api.delete(`/v2/templates/${doomed}`)).status, 204);
    const invBefore = (await api.get(`/v2/extractions?template_id=${invTemplate}`)).body.total;
    const [po1] = poCsvs();
    const started = await run(api, flow.id, { invoice: { name: 'i.csv', content: invoiceCsv(12) }, po: { name: 'p.csv', content: po1 } });
    const failed = await waitRun(api, started.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error, `Step 'Extract po' failed: template '${doomed}' was not found (it may have been deleted)`);
    assert.deepEqual(failed.steps.map((s: any) => [s.step_id, s.status]), [['inv', 'succeeded'], ['po', 'failed']]);
    assert.equal((await api.post(`/v2/flows/runs/${reconciledRun.id}/rerun`)).status, 409);

    // Fix the flow (a new template), then rerun.
    const fixed = (await api.post('/v2/templates', PO_TEMPLATE)).body.id;
    const steps = flow.steps.map((s: any) => (s.id === 'po' ? { ...s, config: { ...s.config, template_id: fixed } } : s));
    assert.equal((await api.patch(`/v2/flows/${flow.id}`, { steps })).status, 200);
    const rerun = await api.post(`/v2/flows/runs/${started.id}/rerun`);
    assert.equal(rerun.status, 202, rerun.text);
    assert.deepEqual([rerun.body.status, rerun.body.current_attempt, rerun.body.flow_attempts.length, rerun.body.error, rerun.body.end_time], ['processing', 2, 2, null, null]);
    const twice = await api.post(`/v2/flows/runs/${started.id}/rerun`);
    assert.equal(twice.status, 409);

    const done = await waitRun(api, started.id);
    assert.equal(done.status, 'completed', done.error);
    assert.equal(done.current_attempt, 2);
    assert.deepEqual(done.flow_attempts.map((a: any) => [a.attempt, a.status, a.trigger]), [[1, 'failed', 'api'], [2, 'completed', 'rerun']]);
    assert.equal(done.flow_attempts[0].error, failed.error);
    assert.deepEqual(done.flow_attempts[1].steps.map((s: any) => [s.step_id, s.status]), [['inv', 'reused'], ['po', 'succeeded'], ['match', 'succeeded']]);
    assert.deepEqual(done.steps.map((s: any) => [s.step_id, s.attempt, s.status]), [['inv', 1, 'succeeded'], ['po', 1, 'failed'], ['po', 2, 'succeeded'], ['match', 2, 'succeeded']]);
    assert.deepEqual(done.status_history.map((h: any) => h.status), ['processing', 'failed', 'processing', 'completed']);
    assert.equal(done.status_history[2].message, 'Rerun started (attempt 2)');
    assert.deepEqual([done.steps.at(-1).output.summary.matched, done.steps.at(-1).output.summary.mismatched], [10, 2]);
    // The succeeded extraction step was not executed again.
    assert.equal((await api.get(`/v2/extractions?template_id=${invTemplate}`)).body.total, invBefore + 1);
    assert.equal((await api.post(`/v2/flows/runs/${started.id}/rerun`)).status, 409);
  });
});

describe('the run endpoint refuses bad requests', () => {
  it('answers 400 naming the field, 404 for an unknown flow, 409 for an inactive one, and keeps nothing', async () => {
    const ws = await app.workspace('flows-400');
    const client = new ApiClient(app.url, ws.key);
    const tpl = (await client.post('/v2/templates', INVOICE_TEMPLATE)).body.id;
    const flow = await createFlow(client, {
      name: 'Strict',
      file_input_config: { file_fields: [{ ...invoiceField, file_types: ['csv'], max_file_size: 2000 }, { key: 'extra', name: 'Extra', required: false, file_types: ['csv'], multiple: true }] },
      steps: [extractionStep('inv', tpl, 'invoice', 1)],
    });
    const csv = { name: 'i.csv', content: invoiceCsv(2) };
    const cases: [Parameters<typeof form>[0], RegExp][] = [
      [{}, /^The file field 'invoice' \(Invoice\) is required$/],
      [{ extra_1: csv }, /The file field 'invoice' \(Invoice\) is required/],
      [{ invoice: csv, receipt: csv }, /^Unknown file part 'receipt': this flow's file parts are invoice; extra_1, extra_2, …$/],
      [{ invoice: csv, invoice_1: csv }, /Unknown file part 'invoice_1'/],
      [{ invoice: { name: 'i.pdf', content: '%PDF-1.4' } }, /^File 'i\.pdf' of part 'invoice' is of kind pdf; file field 'invoice' accepts csv$/],
      [{ invoice: csv, extra_1: { name: 'x.xlsx', content: 'zz' } }, /of part 'extra_1' is of kind excel/],
      [{ invoice: { name: 'i.docx', content: 'x' } }, /type 'docx', which is not supported/],
      [{ invoice: { name: 'big.csv', content: 'a,b\n'.repeat(1000) } }, /^File 'big\.csv' of part 'invoice' is 4000 bytes, over the limit of 2000 bytes for file field 'invoice'$/],
      [{ invoice: { name: 'e.csv', content: '' } }, /is empty/],
      [{ invoice: csv, metadata: '[1]' }, /^The parameter 'metadata' must be a JSON object$/],
      [{ invoice: csv, invoice_metadata: 'nope' }, /^The parameter 'invoice_metadata' must be a JSON object$/],
    ];
    const twice = new FormData();
    twice.append('invoice', new Blob([csv.content]), 'a.csv');
    twice.append('invoice', new Blob([csv.content]), 'b.csv');
    for (const [parts, message] of cases) {
      const res = await client.upload(`/v2/flows/${flow.id}/run`, form(parts));
      assert.equal(res.status, 400, `${JSON.stringify(Object.keys(parts))}: ${res.text}`);
      assert.match(res.body.error, message);
    }
    const dup = await client.upload(`/v2/flows/${flow.id}/run`, twice);
    assert.deepEqual([dup.status, dup.body.error], [400, "File field 'invoice' accepts one file; 2 were sent"]);
    const json = await client.post(`/v2/flows/${flow.id}/run`, { invoice: 'x' });
    assert.deepEqual([json.status, json.body.error], [400, 'The request must be multipart/form-data']);
    const unknown = await client.upload('/v2/flows/flow_nope/run', form({ invoice: csv }));
    assert.deepEqual([unknown.status, unknown.body.error], [404, 'Flow not found']);
    await client.patch(`/v2/flows/${flow.id}`, { active: false });
    const inactive = await client.upload(`/v2/flows/${flow.id}/run`, form({ invoice: csv }));
    assert.equal(inactive.status, 409);
    assert.match(inactive.body.error, /^Flow 'Strict' is inactive/);

    // Nothing half-written: no run, no stored object.
    assert.equal((await client.get('/v2/flows/runs')).body.pagination.total, 0);
    const url = new URL(process.env.S3_ENDPOINT!);
    const minio = new Minio.Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: process.env.S3_ACCESS_KEY ?? 'distill', secretKey: process.env.S3_SECRET_KEY ?? 'distill-dev-secret', pathStyle: true });
    const objects: string[] = [];
    for await (const o of minio.listObjectsV2(process.env.S3_BUCKET!, `flow-runs/${ws.workspaceId}/`, true)) objects.push(o.name!);
    assert.deepEqual(objects, []);
  });
});

describe('listing', () => {
  it('filters by flow and status, pages newest first with next_offset 0 on the last page', async () => {
    const ws = await app.workspace('flows-list');
    const client = new ApiClient(app.url, ws.key);
    const quick = await createFlow(client, { name: 'Quick', steps: [] });
    const held = await createFlow(client, { name: 'Held', steps: [{ id: 'r', title: 'Hold', type: 'review' }] });
    const ids: string[] = [];
    for (const flow of [quick, held, quick, held, quick]) ids.push((await run(client, flow.id, {})).id);
    for (const id of ids) await waitRun(client, id, ['completed', 'review']);
    const newestFirst = [...ids].reverse();

    const all = (await client.get('/v2/flows/runs')).body;
    assert.deepEqual(all.flow_runs.map((r: any) => r.id), newestFirst);
    assert.deepEqual(all.pagination, { total: 5, limit: 100, offset: 0, next_offset: 0, filter: 'all' });
    const page1 = (await client.get('/v2/flows/runs?limit=2')).body;
    assert.deepEqual([page1.flow_runs.map((r: any) => r.id), page1.pagination.next_offset], [newestFirst.slice(0, 2), 2]);
    const last = (await client.get('/v2/flows/runs?limit=2&offset=4')).body;
    assert.deepEqual([last.flow_runs.map((r: any) => r.id), last.pagination], [newestFirst.slice(4), { total: 5, limit: 2, offset: 4, next_offset: 0, filter: 'all' }]);
    const byFlow = (await client.get(`/v2/flows/runs?flow_id=${held.id}`)).body;
    assert.deepEqual(byFlow.flow_runs.map((r: any) => r.id), [ids[3], ids[1]]);
    assert.deepEqual((await client.get('/v2/flows/runs?status=completed')).body.flow_runs.map((r: any) => r.id), [ids[4], ids[2], ids[0]]);
    assert.deepEqual((await client.get(`/v2/flows/runs?status=review&flow_id=${quick.id}`)).body.pagination.total, 0);
    assert.equal((await client.get('/v2/flows/runs?status=review')).body.pagination.total, 2);
    for (const bad of ['status=done', 'limit=0', 'limit=1001', 'offset=-1']) {
      const res = await client.get(`/v2/flows/runs?${bad}`);
      assert.equal(res.status, 400, bad);
      assert.match(res.body.error, /status|limit|offset/);
    }

    // 4.11: all runs of one flow, a bare array, newest first.
    const ofQuick = await client.get(`/v2/flows/${quick.id}/runs`);
    assert.deepEqual(ofQuick.body.map((r: any) => r.id), [ids[4], ids[2], ids[0]]);
    assert.equal(ofQuick.body[0].status, 'completed');
    // 4.7: active flows only, a bare array with the full configuration.
    assert.deepEqual((await client.get('/v2/flows')).body.map((f: any) => f.id), [held.id, quick.id]);
    await client.patch(`/v2/flows/${quick.id}`, { active: false });
    const active = (await client.get('/v2/flows')).body;
    assert.deepEqual(active.map((f: any) => [f.id, f.steps[0].type]), [[held.id, 'review']]);
    for (const id of [ids[1]!, ids[3]!]) assert.equal((await client.post(`/v2/flows/runs/${id}/review`, { decision: 'reject' })).status, 200);
  });
});

describe('workspace isolation', () => {
  it('answers 404 on every flow endpoint for another workspace', async () => {
    const run = reconciledRun;
    const flowId = run.flow_id;
    const fileId = run.drive_files.xlsx.file_id;
    const checks: [string, string, unknown?][] = [
      ['GET', `/v2/flows/${flowId}`],
      ['PATCH', `/v2/flows/${flowId}`, { name: 'mine' }],
      ['DELETE', `/v2/flows/${flowId}`],
      ['GET', `/v2/flows/${flowId}/runs`],
      ['GET', `/v2/flows/runs/${run.id}`],
      ['POST', `/v2/flows/runs/${run.id}/review`, { decision: 'approve' }],
      ['POST', `/v2/flows/runs/${run.id}/rerun`],
      ['GET', `/v2/flows/runs/${run.id}/files/${fileId}`],
    ];
    for (const [method, path, json] of checks) {
      const res = await other.request(method, path, json === undefined ? {} : { json });
      assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
    }
    const runRes = await other.upload(`/v2/flows/${flowId}/run`, form({ invoice: { name: 'i.csv', content: 'a' } }));
    assert.deepEqual([runRes.status, runRes.body.error], [404, 'Flow not found']);
    assert.deepEqual((await other.get('/v2/flows')).body, []);
    assert.equal((await other.get('/v2/flows/runs')).body.pagination.total, 0);
    assert.equal((await other.get(`/v2/flows/runs?flow_id=${flowId}`)).body.pagination.total, 0);
    const borrowed = await other.post('/v2/flows', { name: 'x', file_input_config: { file_fields: [invoiceField] }, steps: [extractionStep('a', invTemplate, 'invoice', 1)] });
    assert.equal(borrowed.status, 400);
    assert.match(borrowed.body.error, /was not found/);
    assert.equal((await api.get(`/v2/flows/${flowId}`)).status, 200);
    const unauthenticated = await new ApiClient(app.url).get('/v2/flows/runs');
    assert.equal(unauthenticated.status, 401);
  });
});

describe('a worker killed during a run', () => {
  it('completes the run after a new worker starts (killed mid-reconciliation and while in review)', async () => {
    const rows = 40_000;
    const big = ['SKU,Description,Amount,Qty'];
    const bigPo = ['Item code,Price,Vendor'];
    for (let i = 0; i < rows; i++) {
      big.push(`K-${i},Item,${(i % 1000) / 4},1`);
      bigPo.push(`K-${i},${(i % 1000) / 4},V`);
    }
    const flow = await createFlow(api, {
      name: 'Killed',
      file_input_config: { file_fields: [invoiceField, { key: 'po', name: 'PO', required: true, file_types: ['csv'] }] },
      steps: [
        extractionStep('inv', invTemplate, 'invoice', 1),
        extractionStep('po', poTemplate, 'po', 2),
        { id: 'match', title: 'Match', type: 'reconciliation', order: 3, config: { source_step_id_1: 'inv', source_step_id_2: 'po', table_key_1: 'lines', table_key_2: 'items' } },
        { id: 'ok', title: 'Sign off', type: 'review', order: 4 },
      ],
    });
    const started = await run(api, flow.id, { invoice: { name: 'big.csv', content: big.join('\n') }, po: { name: 'po.csv', content: bigPo.join('\n') } });
    const { connection, client } = await temporalClient();
    try {
      const handle = client.workflow.getHandle(`flow-run-${started.id}`);
      const deadline = Date.now() + 90_000;
      for (;;) {
        const { raw } = await handle.describe();
        // state 2 = PENDING_ACTIVITY_STATE_STARTED
        if ((raw.pendingActivities ?? []).some((a) => a.activityType?.name === 'reconcileStep' && Number(a.state) === 2)) break;
        assert.ok(Date.now() < deadline, 'reconcileStep never started');
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await connection.close();
    }
    await app.killWorker('SIGKILL');
    await app.startWorker();
    const waiting = await waitRun(api, started.id, ['review', 'failed', 'completed'], 120_000);
    assert.equal(waiting.status, 'review', waiting.error);
    assert.deepEqual(waiting.steps.find((s: any) => s.step_id === 'match').output.summary, { rows_1: rows, rows_2: rows, matched: rows, mismatched: 0, unmatched_1: 0, unmatched_2: 0 });
    // Again while the run waits in review: the new worker replays the history (a query answers
    // once it has) and takes the decision.
    await app.killWorker('SIGKILL');
    await app.startWorker();
    {
      const { connection, client } = await temporalClient();
      try {
        const handle = client.workflow.getHandle(`flow-run-${started.id}`);
        const deadline = Date.now() + 90_000;
        for (;;) {
          const state = await handle.query<{ waiting_for_review: string | null }>('state').catch(() => null);
          if (state) {
            assert.equal(state.waiting_for_review, 'ok');
            break;
          }
          assert.ok(Date.now() < deadline, 'no worker answered a query');
          await new Promise((r) => setTimeout(r, 250));
        }
      } finally {
        await connection.close();
      }
    }
    // The decision is taken at the first try. The kill can land while the review-requested event
    // is being published; that activity is lost with the worker and retried only after its
    // timeout, and the decision must not wait for it (the API would answer 503 after 30 s).
    const decided = await api.post(`/v2/flows/runs/${started.id}/review`, { decision: 'approve' });
    assert.equal(decided.status, 200, decided.text);
    const done = await waitRun(api, started.id);
    assert.equal(done.status, 'completed', done.error);
    assert.deepEqual(done.steps.map((s: any) => [s.step_id, s.status]), [['inv', 'succeeded'], ['po', 'succeeded'], ['match', 'succeeded'], ['ok', 'succeeded']]);
  });
});

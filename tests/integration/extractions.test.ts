// The extraction API end to end: real API and worker processes, real Temporal, Postgres and S3.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import pg from 'pg';
import { startApp, type TestApp } from '../helpers/app.js';
import { ApiClient, fileForm } from '../helpers/http.js';
import { temporalClient } from '../helpers/temporal.js';

let app: TestApp;
let api: ApiClient;
let other: ApiClient;
let templateId: string;

const TEMPLATE = {
  name: 'Orders',
  file_types: ['csv', 'excel'],
  fields: [{ name: 'Customer', data_type: 'string' }],
  tables: [
    {
      key: 'orders',
      name: 'Orders',
      columns: [
        { key: 'order_id', name: 'Order ID', data_type: 'string', validations: [{ type: 'unique' }] },
        { key: 'quantity', name: 'Quantity', data_type: 'integer', suggested_mappings: ['Qty'] },
        { key: 'status', name: 'Status', validations: [{ type: 'enum', value: 'open,closed', severity: 'warn' }] },
        { key: 'note', name: 'Note' },
      ],
    },
  ],
};

const CSV = ['Order ID,Qty,Status', 'A-1,3,open', 'A-2,x,closed', 'A-3,5,pending', '"A-4",7,"open"', 'A-5,,closed'].join('\r\n');

async function upload(client: ApiClient, fields: Record<string, string>, file?: { name: string; content: string | Uint8Array }) {
  return client.upload('/v2/extractions/upload', fileForm(fields, file));
}

async function extract(client: ApiClient, name: string, content: string | Uint8Array, extra: Record<string, string> = {}) {
  const res = await upload(client, { template_id: templateId, ...extra }, { name, content });
  assert.equal(res.status, 202, res.text);
  return client.waitForExtraction(res.body.id);
}

before(async () => {
  app = await startApp({ MAX_UPLOAD_BYTES: String(5 * 1024 * 1024), CSV_DOWNLOAD_ROW_LIMIT: '5' });
  const a = await app.workspace('a');
  const b = await app.workspace('b');
  api = new ApiClient(app.url, a.key);
  other = new ApiClient(app.url, b.key);
  const created = await api.post('/v2/templates', TEMPLATE);
  assert.equal(created.status, 201, created.text);
  templateId = created.body.id;
});

after(async () => {
  await app?.stop();
});

describe('health and auth', () => {
  it('reports every dependency healthy without a key', async () => {
    const res = await new ApiClient(app.url).get('/healthz');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.checks, { postgres: 'ok', temporal: 'ok', s3: 'ok' });
    assert.match(res.headers.get('x-request-id') ?? '', /^[\w-]{8,}$/);
  });

  it('refuses missing, malformed, unknown and revoked keys with the spec body', async () => {
    const anonymous = new ApiClient(app.url);
    for (const client of [anonymous, anonymous.withKey('nope'), anonymous.withKey(`dk_${'a'.repeat(43)}`)]) {
      const res = await client.get('/v2/extractions');
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'Invalid or missing API key' });
    }
    const ws = await app.workspace('revoked');
    const created = JSON.parse(await app.cli('key', 'create', '--workspace', ws.workspaceId)) as { key_id: string; api_key: string };
    const fresh = anonymous.withKey(created.api_key);
    assert.equal((await fresh.get('/v2/extractions')).status, 200);
    await app.cli('key', 'revoke', created.key_id);
    assert.equal((await fresh.get('/v2/extractions')).status, 401);
  });
});

describe('templates', () => {
  it('fills keys, validates, updates and deletes', async () => {
    const res = await api.post('/v2/templates', { name: 'T', tables: [{ name: 'Line Items', columns: [{ name: 'Unit Price' }] }] });
    assert.equal(res.status, 201);
    assert.equal(res.body.tables[0].key, 'line_items');
    assert.equal(res.body.tables[0].columns[0].key, 'unit_price');
    assert.equal(res.body.tables[0].columns[0].data_type, 'string');
    const bad = await api.post('/v2/templates', { name: 'T', fields: [{ key: 'Bad Key', name: 'x' }] });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /fields\.0\.key/);
    const dup = await api.post('/v2/templates', { name: 'T', fields: [{ key: 'a', name: 'A' }, { key: 'a', name: 'B' }] });
    assert.deepEqual([dup.status, dup.body.error], [400, "Duplicate field key 'a'"]);
    const patched = await api.patch(`/v2/templates/${res.body.id}`, { name: 'Renamed' });
    assert.equal(patched.body.name, 'Renamed');
    assert.equal((await other.get(`/v2/templates/${res.body.id}`)).status, 404);
    assert.equal((await api.delete(`/v2/templates/${res.body.id}`)).status, 204);
    assert.deepEqual((await api.get(`/v2/templates/${res.body.id}`)).body, { error: 'Template not found' });
  });
});

describe('upload errors (spec 7)', () => {
  const csv = { name: 'a.csv', content: CSV };
  it('answers each refused upload with the spec message', async () => {
    const cases: [Record<string, string>, { name: string; content: string | Uint8Array } | undefined, number, string | RegExp][] = [
      [{}, csv, 400, "The parameter 'template_id' is required"],
      [{ template_id: 'x' }, undefined, 400, 'No file was uploaded or the file is empty'],
      [{ template_id: 'x' }, { name: 'a.csv', content: '' }, 400, 'No file was uploaded or the file is empty'],
      [{ template_id: 'x' }, { name: 'a.docx', content: 'hello' }, 400, /^File type 'docx' is not supported\. Supported types: pdf, xlsx, xls, csv, tsv, jpg, png, webp, tiff$/],
      [{ template_id: 'x' }, { name: 'big.csv', content: new Uint8Array(6 * 1024 * 1024) }, 400, 'File size 6.0 MB exceeds limit of 5 MB'],
      [{ template_id: 'x', metadata: '[1,2]' }, csv, 400, "The parameter 'metadata' must be a JSON object"],
      [{ template_id: 'tpl_unknown' }, csv, 404, 'Template not found'],
    ];
    for (const [fields, file, status, message] of cases) {
      const res = await upload(api, fields, file);
      assert.equal(res.status, status, res.text);
      if (typeof message === 'string') assert.equal(res.body.error, message);
      else assert.match(res.body.error, message);
    }
    // Nothing was recorded for any of them.
    assert.equal((await api.get('/v2/extractions')).body.total, 0);
  });

  it('answers 400 for a missing extraction id', async () => {
    assert.deepEqual((await api.get('/v2/extractions/')).body, { error: 'No extraction ID provided' });
    assert.deepEqual((await api.get('/v2/extractions//download-original')).body, { error: 'No extraction ID provided' });
  });
});

describe('a CSV extraction', () => {
  let extraction: any;
  before(async () => {
    extraction = await extract(api, 'orders.csv', `Customer: Acme Ltd\r\n\r\n${CSV}`, { name: 'March orders', guidance: 'be nice', metadata: '{"batch":7}' });
  });

  it('completes with the full form of spec 2.1', async () => {
    const e = extraction;
    assert.equal(e.status, 'completed', e.error);
    assert.deepEqual(e.status_history.map((h: any) => h.status), ['processing', 'completed']);
    assert.equal(e.template_id, templateId);
    assert.equal(e.template_name, 'Orders');
    assert.deepEqual([e.name, e.guidance], ['March orders', 'be nice']);
    assert.deepEqual(e.metadata, { batch: 7 });
    assert.deepEqual(e.file_type, { key: 'csv', extension: 'csv', mime_type: 'text/csv' });
    assert.equal(e.file_name, 'orders.csv');
    assert.ok(e.file_size > 50);
    assert.deepEqual(e.data.fields, { values: { customer: 'Acme Ltd' }, validations: {} });
    assert.deepEqual(e.stats, { fields: { valid: 1, invalid: 0, total: 1 }, tables: { orders: { rows: { valid: 3, invalid: 2, total: 5 }, columns: { total: 4 } } } });
    const table = e.data.tables.orders;
    assert.deepEqual(table.pagination, { offset: 0, limit: 100, total: 5, next_offset: null, filter: 'all' });
    assert.deepEqual(table.rows[0], { index: 0, values: { order_id: 'A-1', quantity: '3', status: 'open', note: '' }, validations: {} });
    assert.deepEqual(table.rows[1].validations, { quantity: [{ validate: 'data_type', severity: 'error', message: "Quantity: 'x' is not a valid integer" }] });
    assert.equal(table.rows[2].validations.status[0].severity, 'warn');
    assert.deepEqual(e.template.tables[0].columns.map((c: any) => c.key), ['order_id', 'quantity', 'status', 'note']);
    assert.ok(Number.isInteger(e.created_at) && e.updated_at >= e.created_at);
  });

  it('keeps the template snapshot when the template changes later', async () => {
    const t = await api.post('/v2/templates', { ...TEMPLATE, name: 'Snapshot test' });
    const done = await extract(api, 'x.csv', CSV, { template_id: t.body.id });
    await api.patch(`/v2/templates/${t.body.id}`, { name: 'Changed', tables: [{ key: 'other', name: 'Other', columns: [{ name: 'A' }] }] });
    const again = await api.get(`/v2/extractions/${done.id}`);
    assert.equal(again.body.template.name, 'Snapshot test');
    assert.equal(again.body.data.tables.orders.pagination.total, 5);
  });

  it('pages and filters rows', async () => {
    const base = `/v2/extractions/${extraction.id}/tables/orders/rows`;
    const page = await api.get(`${base}?offset=1&limit=2`);
    assert.deepEqual(page.body.pagination, { offset: 1, limit: 2, total: 5, next_offset: 3, filter: 'all' });
    assert.deepEqual(page.body.rows.map((r: any) => r.index), [1, 2]);
    const expectations: [string, number[]][] = [
      ['valid', [0, 3, 4]], ['invalid', [1, 2]], ['error', [1]], ['warn', [2]], ['info', []], ['warn,error', [1, 2]], ['valid,warn', [0, 2, 3, 4]],
    ];
    for (const [filter, indexes] of expectations) {
      const res = await api.get(`${base}?filter=${filter}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.rows.map((r: any) => r.index), indexes, filter);
      assert.equal(res.body.pagination.total, indexes.length);
      assert.equal(res.body.pagination.filter, filter);
    }
    const byColumn = await api.get(`${base}?column_validations=status`);
    assert.deepEqual(byColumn.body.rows.map((r: any) => r.index), [2]);
    const last = await api.get(`${base}?filter=valid&offset=2&limit=1`);
    assert.deepEqual([last.body.rows.map((r: any) => r.index), last.body.pagination.next_offset], [[4], null]);
  });

  it('pages filtered rows across many row blocks', async () => {
    // 10,000 rows: every 7th has a bad quantity (error), every 11th a status outside the enum (warn).
    const lines = ['Order ID,Qty,Status'];
    for (let i = 0; i < 10_000; i++) lines.push(`B-${i},${i % 7 === 3 ? 'x' : i},${i % 11 === 5 ? 'odd' : 'open'}`);
    const big = await extract(api, 'many.csv', lines.join('\n'));
    assert.equal(big.status, 'completed');
    const base = `/v2/extractions/${big.id}/tables/orders/rows`;
    const all = Array.from({ length: 10_000 }, (_, i) => i);
    const matching: Record<string, number[]> = {
      error: all.filter((i) => i % 7 === 3),
      warn: all.filter((i) => i % 11 === 5),
      valid: all.filter((i) => i % 7 !== 3 && i % 11 !== 5),
      invalid: all.filter((i) => i % 7 === 3 || i % 11 === 5),
    };
    for (const [filter, indexes] of Object.entries(matching)) {
      for (const offset of [0, 1, 500, 4090, indexes.length - 30, indexes.length]) {
        const res = await api.get(`${base}?filter=${filter}&offset=${offset}&limit=100`);
        assert.equal(res.status, 200);
        assert.deepEqual(res.body.rows.map((r: any) => r.index), indexes.slice(offset, offset + 100), `${filter} at ${offset}`);
        assert.equal(res.body.pagination.total, indexes.length);
      }
    }
  });

  it('refuses bad row parameters', async () => {
    const base = `/v2/extractions/${extraction.id}/tables/orders/rows`;
    assert.deepEqual((await api.get(`${base}?filter=valid,wrong`)).body, { error: "The parameter 'filter' contains invalid value: wrong" });
    assert.equal((await api.get(`${base}?limit=0`)).status, 400);
    assert.equal((await api.get(`${base}?limit=1001`)).status, 400);
    assert.equal((await api.get(`${base}?offset=-1`)).status, 400);
    assert.deepEqual((await api.get(`/v2/extractions/${extraction.id}/tables/nope/rows`)).body, { error: "Table 'nope' not found" });
  });

  it('downloads the table as CSV with filters', async () => {
    const res = await api.get(`/v2/extractions/${extraction.id}/tables/orders/download?filter=invalid`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="orders.csv"');
    assert.equal(res.text, 'Order ID,Quantity,Status,Note\r\nA-2,x,closed,\r\nA-3,5,pending,\r\n');
    const all = await api.get(`/v2/extractions/${extraction.id}/tables/orders/download?column_validations=quantity`);
    assert.equal(all.text.split('\r\n').length - 2, 1);
  });

  it('refuses a CSV download of a table over the row limit', async () => {
    const big = await extract(api, 'big.csv', ['Order ID', 'a', 'b', 'c', 'd', 'e', 'f'].join('\n'));
    const res = await api.get(`/v2/extractions/${big.id}/tables/orders/download`);
    assert.equal(res.status, 400);
    assert.match(res.body.error, /too large to download directly.*rows pagination endpoint/);
  });

  it('returns the original bytes', async () => {
    const res = await api.get(`/v2/extractions/${extraction.id}/download-original`);
    assert.equal(res.status, 200);
    assert.equal(res.text, `Customer: Acme Ltd\r\n\r\n${CSV}`);
    assert.equal(res.headers.get('content-type'), 'text/csv');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="orders\.csv"/);
  });

  it('lists newest first with template filter and paging', async () => {
    const list = await api.get('/v2/extractions?limit=2');
    assert.equal(list.status, 200);
    assert.equal(list.body.limit, 2);
    assert.equal(list.body.offset, 0);
    assert.ok(list.body.total >= 3);
    const [first, second] = list.body.extractions;
    assert.ok(first.created_at >= second.created_at);
    const filtered = await api.get(`/v2/extractions?template_id=${templateId}&limit=1000`);
    assert.ok(filtered.body.extractions.every((x: any) => x.template_id === templateId));
    const summary = filtered.body.extractions.find((x: any) => x.id === extraction.id);
    assert.deepEqual(summary.file_info, { file_name: 'orders.csv', file_type: 'csv' });
    assert.deepEqual(summary.metadata, { batch: 7 });
    const noMeta = filtered.body.extractions.find((x: any) => x.id !== extraction.id);
    assert.equal(noMeta.metadata, null);
    const full = await api.get(`/v2/extractions/${extraction.id}`);
    assert.equal(summary.created_at, full.body.created_at);
    assert.equal(summary.updated_at, full.body.updated_at);
    const next = await api.get('/v2/extractions?limit=1&offset=1');
    assert.equal(next.body.extractions[0].id, second.id);
    const past = await api.get(`/v2/extractions?limit=5&offset=${list.body.total}`);
    assert.deepEqual([past.body.extractions, past.body.total, past.body.offset], [[], list.body.total, list.body.total]);
    assert.equal((await api.get('/v2/extractions?limit=1001')).status, 400);
  });

  it('hides it from other workspaces exactly like an unknown id', async () => {
    for (const path of ['', '/tables/orders/rows', '/tables/orders/download', '/download-original']) {
      const theirs = await other.get(`/v2/extractions/${extraction.id}${path}`);
      const unknown = await other.get(`/v2/extractions/ext_unknown${path}`);
      assert.equal(theirs.status, 404);
      assert.deepEqual(theirs.body, unknown.body);
    }
    assert.equal((await other.get('/v2/extractions')).body.total, 0);
  });
});

describe('spreadsheets and failures', () => {
  it('reads every sheet of a workbook, concatenating sheets with the same header', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Report'], ['Order ID', 'Quantity', 'Status'], ['X-1', 1, 'open']]), 'Jan');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Order ID', 'Quantity', 'Status'], ['X-2', 2, 'closed']]), 'Feb');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Unrelated', 'Sheet'], ['a', 'b']]), 'Notes');
    const bytes = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    const e = await extract(api, 'orders.xlsx', new Uint8Array(bytes));
    assert.equal(e.status, 'completed', e.error);
    assert.deepEqual(e.data.tables.orders.rows.map((r: any) => [r.values.order_id, r.values.quantity]), [['X-1', '1'], ['X-2', '2']]);
    assert.equal(e.file_type.mime_type, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });

  it('fails an unreadable workbook with a message and a failed history entry', async () => {
    const e = await extract(api, 'broken.xlsx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0, 1, 2, 3]));
    assert.equal(e.status, 'failed');
    assert.ok(e.error && e.error.length > 5);
    assert.deepEqual(e.status_history.map((h: any) => h.status), ['processing', 'failed']);
    assert.equal(e.status_history[1].message, e.error);
    const csv = await api.get(`/v2/extractions/${e.id}/tables/orders/download`);
    assert.deepEqual(csv.body, { error: 'Cannot download extraction while in status failed' });
  });

  it('chooses the template for template_id=auto', async () => {
    await api.post('/v2/templates', { name: 'People', tables: [{ key: 'people', name: 'People', columns: [{ name: 'Name' }, { name: 'Email' }] }] });
    const res = await upload(api, { template_id: 'auto' }, { name: 'p.csv', content: 'Name,Email\nAnn,ann@example.com\n' });
    const e = await api.waitForExtraction(res.body.id);
    assert.equal(e.status, 'completed', e.error);
    assert.equal(e.template_name, 'People');
    assert.equal(e.data.tables.people.rows[0].values.email, 'ann@example.com');
    const none = await upload(api, { template_id: 'auto' }, { name: 'q.csv', content: 'Colour,Shape\nred,round\n' });
    const failed = await api.waitForExtraction(none.body.id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error, /No template matches this document well enough/);
  });
});

describe('a worker killed mid-extraction', () => {
  it('loses nothing and writes no row twice', async () => {
    const rows = 200_000;
    const lines = ['Order ID,Quantity,Status'];
    for (let i = 0; i < rows; i++) lines.push(`R-${i},${i % 100},open`);
    const res = await upload(api, { template_id: templateId }, { name: 'many.csv', content: lines.join('\n') });
    assert.equal(res.status, 202);
    // Kill the worker while it is writing the rows (its COPY running in Postgres), then start a new one.
    const { connection, client } = await temporalClient();
    const handle = client.workflow.getHandle(`extraction-${res.body.id}`);
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    const deadline = Date.now() + 60_000;
    try {
      for (;;) {
        const { rowCount } = await db.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE 'COPY extraction_rows%'");
        if (rowCount) break;
        assert.ok(Date.now() < deadline, 'the rows were never written');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await db.end();
    }
    await app.killWorker('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    await app.startWorker();
    const e = await api.waitForExtraction(res.body.id, 180_000);
    assert.equal(e.status, 'completed', e.error);
    // The load really was cut off: Temporal ran it a second time after the heartbeat timeout.
    const history = await handle.fetchHistory();
    const attempts = (history.events ?? []).filter((ev) => ev.activityTaskStartedEventAttributes).map((ev) => ev.activityTaskStartedEventAttributes!.attempt);
    assert.ok(attempts.some((a) => (a ?? 0) >= 2), `expected a retried activity, saw attempts ${JSON.stringify(attempts)}`);
    await connection.close();
    assert.equal(e.stats.tables.orders.rows.total, rows);
    const tail = await api.get(`/v2/extractions/${e.id}/tables/orders/rows?offset=${rows - 2}&limit=10`);
    assert.deepEqual(tail.body.rows.map((r: any) => [r.index, r.values.order_id]), [[rows - 2, `R-${rows - 2}`], [rows - 1, `R-${rows - 1}`]]);
    assert.equal(tail.body.pagination.next_offset, null);
  });
});

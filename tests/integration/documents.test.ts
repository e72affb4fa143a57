// PDFs and images through the whole pipeline: upload → layout/OCR → mapped, validated rows.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { makePdf } from '../fixtures/layout/make-pdf.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { ApiClient, fileForm } from '../helpers/http.js';
import { temporalClient } from '../helpers/temporal.js';

const run = promisify(execFile);
const EDGE = new URL('../../../shared/datasets/pdf-tables/edge/', import.meta.url);

let app: TestApp;
let api: ApiClient;
let templateId: string;
let dir: string;
let invoicePdf: string;

const ROWS = [
  ['Widget', '2', '3.50'],
  ['Gadget', '1', '12.00'],
  ['Sprocket', '10', '0.25'],
];

before(async () => {
  app = await startApp();
  api = new ApiClient(app.url, (await app.workspace('docs')).key);
  const created = await api.post('/v2/templates', {
    name: 'Invoice',
    file_types: ['pdf', 'image'],
    fields: [
      { key: 'invoice_number', name: 'Invoice number' },
      { key: 'invoice_date', name: 'Invoice date', data_type: 'date' },
    ],
    tables: [
      {
        key: 'items',
        name: 'Items',
        columns: [
          { key: 'description', name: 'Description' },
          { key: 'quantity', name: 'Quantity', data_type: 'integer', suggested_mappings: ['Qty'] },
          { key: 'unit_price', name: 'Unit price', data_type: 'currency' },
        ],
      },
    ],
  });
  templateId = created.body.id;
  dir = await mkdtemp(join(tmpdir(), 'distill-docs-'));
  invoicePdf = join(dir, 'invoice.pdf');
  await makePdf(invoicePdf, [
    (p) => {
      p.text('ACME Supplies', 72, 60, { size: 16, bold: true });
      p.text('Invoice number: INV-2024-001', 72, 100);
      p.text('Invoice date: 2024-03-15', 72, 116);
      p.grid([72, 260, 360, 460], [160, 180, 200, 220, 240], [['Description', 'Qty', 'Unit price'], ...ROWS], { boldFirstRow: true });
    },
  ]);
});

after(async () => {
  await app?.stop();
});

/** The activities the extraction's workflow scheduled through the server (local ones are markers). */
async function scheduledActivities(extractionId: string): Promise<{ activities: string[]; heartbeatTimeouts: number[]; markers: string[] }> {
  const { connection, client } = await temporalClient();
  try {
    const handle = client.workflow.getHandle(`extraction-${extractionId}`);
    await handle.result().catch(() => undefined);
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = events.flatMap((e) => e.activityTaskScheduledEventAttributes ?? []);
    return {
      activities: scheduled.map((a) => a.activityType?.name ?? ''),
      heartbeatTimeouts: scheduled.map((a) => Number(a.heartbeatTimeout?.seconds ?? 0)),
      markers: events.flatMap((e) => e.markerRecordedEventAttributes?.markerName ?? []),
    };
  } finally {
    await connection.close();
  }
}

async function extractFile(path: string, name: string, template = templateId, parts: Record<string, string> = {}) {
  const res = await api.upload('/v2/extractions/upload', fileForm({ template_id: template, ...parts }, { name, content: new Uint8Array(await readFile(path)) }));
  assert.equal(res.status, 202, res.text);
  return api.waitForExtraction(res.body.id, 180_000);
}

describe('documents', () => {
  it('reads a digital PDF table and labelled fields', async () => {
    const e = await extractFile(invoicePdf, 'invoice.pdf');
    assert.equal(e.status, 'completed', e.error);
    assert.deepEqual(e.file_type, { key: 'pdf', extension: 'pdf', mime_type: 'application/pdf' });
    assert.deepEqual(e.data.fields.values, { invoice_number: 'INV-2024-001', invoice_date: '2024-03-15' });
    assert.deepEqual(e.data.tables.items.rows.map((r: any) => [r.values.description, r.values.quantity, r.values.unit_price]), ROWS);
    assert.equal(e.stats.tables.items.rows.invalid, 0);
  });

  it('reads the same page as a PNG scan through OCR', async () => {
    await run('pdftoppm', ['-r', '300', '-png', '-singlefile', invoicePdf, join(dir, 'scan')]);
    const e = await extractFile(join(dir, 'scan.png'), 'scan.png');
    assert.equal(e.status, 'completed', e.error);
    assert.equal(e.file_type.key, 'image');
    const rows = e.data.tables.items.rows.map((r: any) => r.values.description);
    assert.deepEqual(rows, ROWS.map((r) => r[0]));
    assert.equal(e.data.fields.values.invoice_number, 'INV-2024-001');
    // OCR is long work: the activity that heartbeats reads it.
    const { activities, heartbeatTimeouts } = await scheduledActivities(e.id);
    assert.deepEqual(activities, ['extractDocument']);
    assert.ok(heartbeatTimeouts[0]! > 0);
  });

  it('reads a short digital PDF within the workflow task, and hands a long one or a scanned one to extractDocument', async () => {
    const invoice = await extractFile(invoicePdf, 'invoice.pdf');
    const small = await scheduledActivities(invoice.id);
    assert.deepEqual(small.activities, []);
    // the read, the outcome, the webhook check
    assert.equal(small.markers.filter((m) => m === 'core_local_activity').length, 3);

    const longPdf = join(dir, 'long.pdf');
    await makePdf(longPdf, Array.from({ length: 21 }, (_, i) => (p) => {
      p.grid([72, 260, 360, 460], [160, 180, 200], [['Description', 'Qty', 'Unit price'], [`Part ${i + 1}`, String(i + 1), '1.00']], { boldFirstRow: true });
    }));
    const long = await extractFile(longPdf, 'long.pdf');
    assert.equal(long.status, 'completed', long.error);
    assert.equal(long.data.tables.items.rows.length, 21);
    assert.equal(long.data.tables.items.rows[20].values.description, 'Part 21');
    assert.deepEqual((await scheduledActivities(long.id)).activities, ['extractDocument']);

    // a page with no text layer (a picture of the invoice): the small read stops there, having written nothing
    await run('pdftoppm', ['-r', '300', '-png', '-singlefile', invoicePdf, join(dir, 'page')]);
    const pictured = await PDFDocument.create();
    const picture = await pictured.embedPng(await readFile(join(dir, 'page.png')));
    pictured.addPage([612, 792]).drawImage(picture, { x: 0, y: 0, width: 612, height: 792 });
    const scannedPdf = join(dir, 'scanned.pdf');
    await writeFile(scannedPdf, await pictured.save());
    const scanned = await extractFile(scannedPdf, 'scanned.pdf');
    assert.equal(scanned.status, 'completed', scanned.error);
    assert.deepEqual(scanned.data.tables.items.rows.map((r: any) => r.values.description), ROWS.map((r) => r[0]));
    assert.deepEqual((await scheduledActivities(scanned.id)).activities, ['extractDocument']);
  });

  it('fails a scan at once when its guidance names an OCR language the worker lacks', async () => {
    const e = await extractFile(join(dir, 'scan.png'), 'scan.png', templateId, { guidance: 'Read carefully.\nlanguage: xx_missing+eng' });
    assert.equal(e.status, 'failed');
    assert.match(e.error, /^OCR language 'xx_missing' is not installed on the worker \(installed: .*\beng\b/);
    assert.equal(e.status_history.at(-1).message, e.error);
  });

  it('chooses the invoice template for template_id=auto', async () => {
    await api.post('/v2/templates', { name: 'People', file_types: ['csv'], tables: [{ name: 'People', columns: [{ name: 'Name' }, { name: 'Email' }] }] });
    const e = await extractFile(invoicePdf, 'invoice.pdf', 'auto');
    assert.equal(e.status, 'completed', e.error);
    assert.equal(e.template_id, templateId);
  });

  it('fails a password-protected PDF with a clear message', async () => {
    const e = await extractFile(new URL('encrypted.pdf', EDGE).pathname, 'encrypted.pdf');
    assert.equal(e.status, 'failed');
    assert.match(e.error, /password/i);
  });

  it('ends every edge document completed or failed with a message', async () => {
    for (const name of ['rotated_page.pdf', 'arabic.pdf', 'china.pdf', 'jpeg2000.pdf']) {
      const e = await extractFile(new URL(name, EDGE).pathname, name);
      assert.ok(e.status === 'completed' || (e.status === 'failed' && e.error.length > 10), `${name}: ${e.status} ${e.error}`);
    }
  });
});

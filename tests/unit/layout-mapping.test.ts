// Tables found in generated PDFs, mapped onto a template by the pipeline's planning (planTables,
// projectRow): exact rows the service would store.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPagedDocument } from '../../activities/documents/pages.js';
import { planTables, plannedRows, sheetSamples, type SheetSample } from '../../activities/mapping/plan.js';
import type { TemplateColumn, TemplateTable } from '../../lib/template.js';
import { makePdf, type PageDrawer } from '../fixtures/layout/make-pdf.js';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'layout-mapping-test-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const col = (key: string, name: string): TemplateColumn => ({ key, name, data_type: 'string', required: false, validations: [], suggested_mappings: [] });

async function samplesOf(name: string, draw: (p: PageDrawer) => void): Promise<SheetSample[]> {
  const path = join(dir, `${name}.pdf`);
  await makePdf(path, [draw]);
  return sheetSamples((await readPagedDocument(path, 'pdf', { guidance: { tableStart: {} } })).sheets);
}

/** The rows extractDocument writes for the template's first table. */
const storedRows = (samples: SheetSample[], table: TemplateTable) => plannedRows(samples, planTables(samples, [table])[0]);

const REGIONS = [
  ['North region', '1,505', '1,580', '1,643'],
  ['South region', '1,512', '1,586', '1,646'],
  ['East region', '1,498', '1,577', '1,640'],
];
// No column name matches the figures' (unnamed) header: the tables are mapped by position.
const VOLUMES: TemplateTable = { key: 'volumes', name: 'Volumes', columns: [col('a', 'Area'), col('y1', 'First'), col('y2', 'Second'), col('y3', 'Third')] };

function figures(p: PageDrawer, top: number, rows: string[][]): void {
  rows.forEach((r, i) => r.forEach((c, k) => p.text(c, [72, 220, 300, 380][k]!, top + i * 14)));
}

test('no header matched: tables of one shape split by text are all taken by position, in order', async () => {
  const samples = await samplesOf('split-by-text', (p) => {
    figures(p, 100, REGIONS);
    p.text('The figures below are projections for the same regions under the second scenario of the study.', 72, 160);
    p.text('They assume the measures described in the previous chapter are taken from the first year on.', 72, 172);
    figures(p, 210, [
      ['North region', '1,456', '1,439', '1,386'],
      ['South region', '1,465', '1,472', '1,427'],
    ]);
  });
  assert.equal(samples.length, 2);
  assert.deepEqual(storedRows(samples, VOLUMES), [
    ...REGIONS,
    ['North region', '1,456', '1,439', '1,386'],
    ['South region', '1,465', '1,472', '1,427'],
  ]);
});

test('no header matched: a table of another shape (text where the other holds figures) is left out', async () => {
  const samples = await samplesOf('other-shape', (p) => {
    figures(p, 100, REGIONS);
    p.text('Contacts for the regional offices named above, with the day of the week they are open.', 72, 160);
    p.text('Offices are closed on public holidays and during the last week of the calendar year.', 72, 172);
    figures(p, 210, [
      ['North office', 'Anna', 'Monday', 'Main street'],
      ['South office', 'Ben', 'Tuesday', 'Harbour road'],
    ]);
  });
  assert.equal(samples.length, 2);
  assert.deepEqual(storedRows(samples, VOLUMES), [
    ...REGIONS,
  ]);
});

test('a header on two lines under a group label spanning columns maps by each column’s own label', async () => {
  const samples = await samplesOf('grouped-header', (p) => {
    // A ruled grid whose first band has no rule between Net and Tax: "Amount" spans both.
    const xs = [72, 200, 280, 360, 460];
    const ys = [100, 118, 136, 154, 172];
    for (const y of ys) p.hline(xs[0]!, xs[4]!, y);
    for (const x of [xs[0]!, xs[1]!, xs[3]!, xs[4]!]) p.vline(x, ys[0]!, ys[4]!);
    p.vline(xs[2]!, ys[1]!, ys[4]!);
    p.text('Amount', 225, 104, { bold: true });
    ['Item', 'Net', 'Tax', 'Status'].forEach((t, c) => p.text(t, xs[c]! + 4, 122, { bold: true }));
    [
      ['Chairs', '120.00', '24.00', 'Paid'],
      ['Tables', '340.50', '68.10', 'Open'],
    ].forEach((r, i) => r.forEach((t, c) => p.text(t, xs[c]! + 4, ys[2 + i]! + 4)));
  });
  assert.equal(samples.length, 1);
  assert.deepEqual(samples[0]!.rows[0], ['Item', 'Amount Net', 'Tax', 'Status']);
  const table: TemplateTable = { key: 'items', name: 'Items', columns: [col('item', 'Item'), col('net', 'Net'), col('tax', 'Tax'), col('status', 'Status')] };
  assert.deepEqual(storedRows(samples, table), [
    ['Chairs', '120.00', '24.00', 'Paid'],
    ['Tables', '340.50', '68.10', 'Open'],
  ]);
  // Spreadsheet headers (no page) are matched whole: "Amount Net" is not "Net".
  const sheet = planTables([{ name: 'Sheet1', rows: samples[0]!.rows }], [table])[0]!;
  assert.deepEqual(sheet.sources[0]!.columnToCell, [0, -1, 2, 3]);
});

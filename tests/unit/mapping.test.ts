import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelSimilarity, matchHeader } from '../../activities/mapping/header-match.js';
import { planTables, projectRow } from '../../activities/mapping/plan.js';
import { findCellFields } from '../../activities/mapping/cell-fields.js';
import { chooseTemplate } from '../../activities/mapping/choose-template.js';
import type { TemplateColumn, TemplateField, TemplateSnapshot, TemplateTable } from '../../lib/template.js';

const col = (key: string, name: string, extra: Partial<TemplateColumn> = {}): TemplateColumn => ({
  key, name, data_type: 'string', required: false, validations: [], suggested_mappings: [], ...extra,
});
const invoiceTable: TemplateTable = {
  key: 'items',
  name: 'Items',
  columns: [col('sku', 'SKU'), col('description', 'Description'), col('quantity', 'Quantity', { suggested_mappings: ['Qty'] }), col('unit_price', 'Unit price')],
};

describe('header matching', () => {
  it('ignores case, spacing and punctuation and accepts close spellings', () => {
    assert.equal(labelSimilarity('Unit-Price', 'unit price'), 1);
    assert.ok(labelSimilarity('Descripton', 'Description') >= 0.8);
    assert.equal(labelSimilarity('Amount', 'Country'), 0);
  });

  it('reads common abbreviations as their words', () => {
    assert.equal(labelSimilarity('Invoice no.', 'Invoice number'), 1);
    assert.equal(labelSimilarity('Nº', 'Number'), 1);
    assert.equal(labelSimilarity('Order #', 'Order number'), 1);
    assert.equal(labelSimilarity('Qty', 'Quantity'), 1);
    assert.equal(labelSimilarity('Amt.', 'Amount'), 1);
    assert.equal(labelSimilarity('Cust. ref', 'Customer reference'), 1);
    assert.equal(labelSimilarity('Note', 'Number'), 0);
  });

  it('assigns each column at most one cell, using suggested mappings', () => {
    const m = matchHeader(['Qty', 'SKU', 'Unit Price', 'Notes', 'Description'], invoiceTable.columns);
    assert.deepEqual(m.columnToCell, [1, 4, 0, 2]);
    assert.equal(m.matched, 4);
  });
});

describe('planTables', () => {
  it('finds the header below title rows and concatenates sheets with the same header', () => {
    const header = ['SKU', 'Description', 'Qty', 'Unit price'];
    const plans = planTables(
      [
        { name: 'Summary', rows: [['Total', '10']] },
        { name: 'Jan', rows: [['Acme invoices'], [], header, ['A1', 'Widget', '2', '3.00']] },
        { name: 'Feb', rows: [header, ['B1', 'Gadget', '1', '9.00']] },
      ],
      [invoiceTable],
    );
    assert.equal(plans.length, 1);
    assert.deepEqual(plans[0]!.sources.map((s) => [s.sheet, s.headerRow]), [[1, 2], [2, 0]]);
    assert.deepEqual(projectRow(['A1', 'Widget', '2', '3.00'], plans[0]!.sources[0]!.columnToCell), ['A1', 'Widget', '2', '3.00']);
  });

  it('picks the best-matching sheet for each of two tables', () => {
    const people: TemplateTable = { key: 'people', name: 'People', columns: [col('name', 'Name'), col('email', 'Email')] };
    const plans = planTables(
      [
        { name: 'Contacts', rows: [['Name', 'Email'], ['Ann', 'ann@example.com']] },
        { name: 'Orders', rows: [['SKU', 'Description', 'Quantity', 'Unit price']] },
      ],
      [invoiceTable, people],
    );
    assert.deepEqual(plans.map((p) => p.sources.map((s) => s.sheet)), [[1], [0]]);
  });

  it('falls back to column positions with one table and one unlabeled source', () => {
    const plans = planTables([{ name: 'p1', rows: [['1', '2', '3', '4']] }], [invoiceTable]);
    assert.deepEqual(plans[0]!.sources, [{ sheet: 0, headerRow: -1, columnToCell: [0, 1, 2, 3] }]);
  });

  it('takes the best-fitting of several unlabeled tables by position', () => {
    const plans = planTables(
      [
        { name: 'p1 t1', rows: [['a', 'b']] },
        { name: 'p1 t2', rows: [['1', '2', '3', '4'], ['5', '6', '7', '8']] },
        { name: 'p2 t1', rows: [['x', 'y', 'z', 'w']] },
      ],
      [invoiceTable],
    );
    assert.equal(plans[0]!.sources[0]!.sheet, 1);
  });

  it('leaves missing columns empty', () => {
    assert.deepEqual(projectRow(['a', 'b'], [1, -1, 0]), ['b', '', 'a']);
  });

  it('prefers the table after a table_start marker', () => {
    const t: TemplateTable = { key: 'rates', name: 'Rates', columns: [col('code', 'Code'), col('rate', 'Rate')] };
    const plans = planTables(
      [
        { name: 't1', rows: [['Code', 'Rate'], ['A', '1']], startMarker: 'Last year' },
        { name: 't2', rows: [['Code', 'Rate', 'x'], ['A', '2']], startMarker: 'Current rates' },
      ],
      [t],
      { rates: 'current rates' },
    );
    assert.equal(plans[0]!.sources[0]!.sheet, 1);
  });
});

describe('findCellFields', () => {
  const fields: TemplateField[] = [
    { key: 'invoice_number', name: 'Invoice number', data_type: 'string', required: false, validations: [] },
    { key: 'issue_date', name: 'Date', data_type: 'date', required: false, validations: [] },
    { key: 'customer', name: 'Customer', data_type: 'string', required: false, validations: [] },
  ];
  it('reads inline, right-hand and below values', () => {
    const values = findCellFields(
      [[['Invoice number: INV-7'], ['Date', '', '2024-03-01'], ['Customer'], ['Acme Ltd']]],
      fields,
    );
    assert.deepEqual(values, { invoice_number: 'INV-7', issue_date: '2024-03-01', customer: 'Acme Ltd' });
  });
  it('prefers a value of the field type', () => {
    const values = findCellFields([[['Date', 'see below'], ['2024-05-06']]], [fields[1]!]);
    assert.equal(values.issue_date, '2024-05-06');
  });
});

describe('chooseTemplate', () => {
  const snapshot = (id: string, tables: TemplateTable[], file_types: string[] = []): TemplateSnapshot => ({ id, name: id, file_types, fields: [], tables });
  it('picks the template whose headers match and respects file_types', () => {
    const people = snapshot('people', [{ key: 'p', name: 'P', columns: [col('name', 'Name'), col('email', 'Email')] }]);
    const items = snapshot('items', [invoiceTable]);
    const pdfOnly = snapshot('pdf-items', [invoiceTable], ['pdf']);
    const samples = [{ name: 's', rows: [['SKU', 'Description', 'Qty', 'Unit price']] }];
    assert.equal(chooseTemplate([people, pdfOnly, items], 'csv', samples, []).best?.id, 'items');
  });
  it('chooses nothing when nothing matches', () => {
    const items = snapshot('items', [invoiceTable]);
    assert.equal(chooseTemplate([items], 'csv', [{ name: 's', rows: [['foo', 'bar']] }], []).best, null);
  });
});

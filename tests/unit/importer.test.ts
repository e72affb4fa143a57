import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillImporter, importerProblems, ruleFor, templateTableFor } from '../../api/routes/importer.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('v1 importer', () => {
  it('fills every omitted field from names only', () => {
    const importer = fillImporter({ name: 'Contacts', template: { columns: [{ name: 'First Name' }, { name: 'E-mail' }, { name: 'First name' }] } });
    assert.match(importer.id, UUID);
    assert.match(importer.template.id, UUID);
    assert.equal(importer.template.name, 'Contacts');
    assert.deepEqual(importer.template.columns.map((c) => c.key), ['first_name', 'e_mail', 'first_name_2']);
    for (const c of importer.template.columns) {
      assert.match(c.id, UUID);
      assert.equal(c.description, '');
      assert.equal(c.required, false);
      assert.deepEqual(c.suggested_mappings, []);
      assert.deepEqual(c.validations, []);
    }
    assert.equal(new Set(importer.template.columns.map((c) => c.id)).size, 3);
  });

  it('keeps what was given and numbers validations without ids after the largest given id', () => {
    const importer = fillImporter({
      id: '6c1f3a52-1d1e-4c5b-9a53-2c1e0c9d7f10',
      name: 'Orders',
      template: {
        id: '0f5b8c2e-7a4d-4e0b-8d1c-5e6f7a8b9c0d',
        name: 'Order lines',
        columns: [
          { name: 'SKU', key: 'sku', required: true, validations: [{ type: 'unique' }, { id: 7, type: 'regex', value: '^[A-Z]+$', message: 'upper', severity: 'warn' }] },
          { name: 'Qty', validations: [{ type: 'min', value: 1 }] },
        ],
      },
    });
    assert.equal(importer.id, '6c1f3a52-1d1e-4c5b-9a53-2c1e0c9d7f10');
    assert.equal(importer.template.name, 'Order lines');
    assert.deepEqual(importer.template.columns[0]!.validations, [
      { id: 8, message: '', severity: 'error', type: 'unique', value: '' },
      { id: 7, message: 'upper', severity: 'warn', type: 'regex', value: '^[A-Z]+$' },
    ]);
    assert.deepEqual(importer.template.columns[1]!.validations, [{ id: 9, message: '', severity: 'error', type: 'min', value: '1' }]);
    assert.equal(importerProblems(importer), null);
  });

  it('reports duplicate keys and ids', () => {
    const dup = fillImporter({ name: 'x', template: { columns: [{ name: 'A', key: 'a' }, { name: 'B', key: 'a' }] } });
    assert.match(importerProblems(dup)!, /Duplicate column key 'a'/);
    const ids = fillImporter({ name: 'x', template: { columns: [{ name: 'A', validations: [{ id: 1, type: 'x' }] }, { name: 'B', validations: [{ id: 1, type: 'y' }] }] } });
    assert.match(importerProblems(ids)!, /Duplicate validation id 1/);
  });

  it('maps known validation types onto template rules and leaves unknown ones out', () => {
    assert.deepEqual(ruleFor({ type: 'Regex', value: '^a', severity: 'warning', message: 'm' }), { type: 'regex', value: '^a', severity: 'warn', message: 'm' });
    assert.deepEqual(ruleFor({ type: 'one-of', value: '["a","b"]', severity: 'error', message: '' }), { type: 'enum', value: 'a,b', severity: 'error' });
    assert.equal(ruleFor({ type: 'max_length', value: '3', severity: 'x', message: '' })!.severity, 'error');
    assert.equal(ruleFor({ type: 'phone_format', value: '', severity: 'error', message: '' }), null);
  });

  it('builds one table of string columns keyed like the importer', () => {
    const importer = fillImporter({ name: 'Contact List', template: { columns: [{ name: 'Email', key: 'Email-Address', required: true, validations: [{ type: 'required' }, { type: 'custom_thing' }] }, { name: 'Name' }] } });
    const table = templateTableFor(importer);
    assert.equal(table.key, 'contact_list');
    assert.equal(table.name, 'Contact List');
    assert.deepEqual(table.columns.map((c) => [c.key, c.data_type, c.required, c.validations.length]), [['email_address', 'string', true, 1], ['name', 'string', false, 0]]);
  });
});

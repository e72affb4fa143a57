// The v1 importer (spec 2.7, 4.12): create fills omitted fields, get returns it as stored, errors
// are {error}, it is scoped by the API key's workspace, and its template works for extractions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.js';
import { ApiClient, fileForm } from '../helpers/http.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Spec 2.7 with every field given: stored and returned unchanged. */
const FULL = {
  id: '6c1f3a52-1d1e-4c5b-9a53-2c1e0c9d7f10',
  name: 'Contacts',
  template: {
    id: '0f5b8c2e-7a4d-4e0b-8d1c-5e6f7a8b9c0d',
    name: 'Contact list',
    columns: [
      {
        id: 'a3c9e1f2-4b5d-4e6f-8a7b-9c0d1e2f3a4b', key: 'first_name', name: 'First Name', description: 'Given name', required: true,
        suggested_mappings: ['First', 'Given name'], validations: [],
      },
      {
        id: 'b4d0f2a3-5c6e-4f70-9b8c-0d1e2f3a4b5c', key: 'email', name: 'Email', description: '', required: false, suggested_mappings: ['E-mail'],
        validations: [
          { id: 1, message: 'Not an email address', severity: 'error', type: 'regex', value: '^[^@\\s]+@[^@\\s]+$' },
          { id: 2, message: 'Duplicate email', severity: 'warning', type: 'unique', value: '' },
        ],
      },
    ],
  },
};

let app: TestApp;
let api: ApiClient;
let other: ApiClient;
let anonymous: ApiClient;

before(async () => {
  app = await startApp();
  api = new ApiClient(app.url, (await app.workspace('importer')).key, { validate: true });
  other = new ApiClient(app.url, (await app.workspace('importer-other')).key, { validate: true });
  anonymous = new ApiClient(app.url, undefined, { validate: true });
});

after(async () => {
  await app?.stop();
});

describe('v1 importer', () => {
  it('round-trips the spec example with every field given', async () => {
    const created = await api.post('/v1/importer', FULL);
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(created.body, FULL);
    const got = await api.get(`/v1/importer/${FULL.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, FULL);
  });

  it('fills every other field when only names are given', async () => {
    const created = await api.post('/v1/importer', {
      name: 'Orders',
      template: { columns: [{ name: 'Order Number' }, { name: 'Qty', validations: [{ type: 'min', value: 1 }, { type: 'max', value: '99', message: 'Too many' }] }, { name: 'Order number' }] },
    });
    assert.equal(created.status, 200, created.text);
    const importer = created.body;
    assert.match(importer.id, UUID);
    assert.match(importer.template.id, UUID);
    assert.equal(importer.name, 'Orders');
    assert.equal(importer.template.name, 'Orders');
    assert.deepEqual(importer.template.columns.map((c: any) => c.key), ['order_number', 'qty', 'order_number_2']);
    for (const column of importer.template.columns) {
      assert.match(column.id, UUID);
      assert.equal(column.description, '');
      assert.equal(column.required, false);
      assert.deepEqual(column.suggested_mappings, []);
    }
    assert.deepEqual(importer.template.columns[0].validations, []);
    assert.deepEqual(importer.template.columns[1].validations, [
      { id: 1, message: '', severity: 'error', type: 'min', value: '1' },
      { id: 2, message: 'Too many', severity: 'error', type: 'max', value: '99' },
    ]);
    assert.deepEqual((await api.get(`/v1/importer/${importer.id}`)).body, importer);
  });

  it('answers errors as {error}', async () => {
    const raw = await fetch(`${app.url}/v1/importer`, { method: 'POST', headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' }, body: '{"name": "x",' });
    assert.equal(raw.status, 400);
    assert.deepEqual(await raw.json(), { error: 'Malformed JSON in request body' });
    const cases: [unknown, string][] = [
      [{ template: { columns: [{ name: 'A' }] } }, "The parameter 'name' is required"],
      [{ name: 'x' }, "The parameter 'template' is required"],
      [{ name: 'x', template: {} }, "The parameter 'template.columns' is required"],
      [{ name: 'x', template: { columns: [] } }, "The parameter 'template.columns' is invalid: at least one column is required"],
      [{ name: 'x', template: { columns: [{ key: 'a' }] } }, "The parameter 'template.columns.0.name' is required"],
      [{ name: 'x', template: { columns: [{ name: 'A', validations: [{ id: 1 }] }] } }, "The parameter 'template.columns.0.validations.0.type' is required"],
      [{ id: 'not-a-uuid', name: 'x', template: { columns: [{ name: 'A' }] } }, "The parameter 'id' is invalid: must be a UUID"],
      [{ name: 'x', template: { columns: [{ name: 'A', key: 'a' }, { name: 'B', key: 'a' }] } }, "Duplicate column key 'a'"],
      [[1, 2], 'The request body must be a JSON object'],
    ];
    for (const [body, error] of cases) {
      const res = await api.post('/v1/importer', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(res.body, { error }, JSON.stringify(body));
    }
    const again = await api.post('/v1/importer', FULL);
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, { error: `An importer with id '${FULL.id}' already exists` });
    for (const id of ['3f2504e0-4f89-41d3-9a0c-0305e82c3301', 'nope']) {
      const res = await api.get(`/v1/importer/${id}`);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { error: 'Importer not found' });
    }
  });

  it('requires the API key and scopes importers to its workspace', async () => {
    const res = await anonymous.get(`/v1/importer/${FULL.id}`);
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { error: 'Invalid or missing API key' });
    assert.equal((await anonymous.post('/v1/importer', { name: 'x', template: { columns: [{ name: 'A' }] } })).status, 401);
    assert.deepEqual((await other.get(`/v1/importer/${FULL.id}`)).body, { error: 'Importer not found' });
  });

  it('makes its template usable for extractions (template_id = the template UUID), with its validations', async () => {
    const template = await api.get(`/v2/templates/${FULL.template.id}`);
    assert.equal(template.status, 200, template.text);
    assert.equal(template.body.name, 'Contact list');
    assert.deepEqual(template.body.tables.map((t: any) => [t.key, t.columns.map((c: any) => [c.key, c.data_type, c.required])]), [
      ['contacts', [['first_name', 'string', true], ['email', 'string', false]]],
    ]);
    assert.equal((await other.get(`/v2/templates/${FULL.template.id}`)).status, 404);

    const csv = 'First Name,Email\nAnn,ann@example.com\nBob,not-an-email\n,ann@example.com\n';
    const upload = await api.upload('/v2/extractions/upload', fileForm({ template_id: FULL.template.id }, { name: 'contacts.csv', content: csv }));
    assert.equal(upload.status, 202, upload.text);
    assert.equal(upload.body.template_id, FULL.template.id);
    const e = await api.waitForExtraction(upload.body.id);
    assert.equal(e.status, 'completed', e.error);
    assert.equal(e.template_name, 'Contact list');
    const rows = e.data.tables.contacts.rows;
    assert.deepEqual(rows.map((r: any) => r.values), [
      { first_name: 'Ann', email: 'ann@example.com' },
      { first_name: 'Bob', email: 'not-an-email' },
      { first_name: '', email: 'ann@example.com' },
    ]);
    assert.deepEqual(rows[0].validations, {});
    assert.deepEqual(rows[1].validations.email, [{ validate: 'regex', severity: 'error', message: 'Not an email address' }]);
    assert.deepEqual(rows[2].validations.first_name.map((i: any) => i.validate), ['required']);
    assert.deepEqual(rows[2].validations.email, [{ validate: 'unique', severity: 'warn', message: 'Duplicate email' }]);
  });
});

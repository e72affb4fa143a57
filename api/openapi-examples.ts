// Examples for the OpenAPI document: curated ones for the main resources, and for every JSON or
// multipart body that has none, one assembled from its schema (component examples first), so
// each operation in the reference shows a concrete request and response.
type Json = Record<string, any>;

const T0 = 1735689600;
const ws = 'ws_0123456789abcdefghjkmnpqrs';
const tpl = 'tpl_0123456789abcdefghjkmnpqrs';
const ext = 'ext_0123456789abcdefghjkmnpqrs';

const templateExample = {
  id: tpl,
  workspace_id: ws,
  name: 'Invoice',
  description: null,
  file_types: ['pdf', 'image'],
  fields: [{ key: 'invoice_number', name: 'Invoice number', data_type: 'string', required: true, validations: [] }],
  tables: [
    {
      key: 'line_items',
      name: 'Line items',
      columns: [
        { key: 'description', name: 'Description', data_type: 'string', required: true, validations: [], suggested_mappings: [] },
        { key: 'amount', name: 'Amount', data_type: 'currency', required: false, validations: [{ type: 'min', value: '0', severity: 'warn' }], suggested_mappings: ['Total', 'Line total'] },
      ],
    },
  ],
  created_at: T0,
  updated_at: T0,
};

const summaryExample = {
  id: ext,
  status: 'completed',
  template_id: tpl,
  metadata: { customer: 'acme' },
  created_at: T0,
  updated_at: T0 + 4,
  file_info: { file_name: 'invoice.pdf', file_type: 'pdf' },
};

const snapshotExample = {
  id: tpl,
  name: 'Invoice',
  fields: [{ key: 'invoice_number', name: 'Invoice number', data_type: 'string' }],
  tables: [{ key: 'line_items', name: 'Line items', columns: [{ key: 'description', name: 'Description', data_type: 'string' }, { key: 'amount', name: 'Amount', data_type: 'currency' }] }],
};

const extractionExample = {
  id: ext,
  workspace_id: ws,
  template_id: tpl,
  template_name: 'Invoice',
  name: null,
  guidance: null,
  file_name: 'invoice.pdf',
  file_size: 48213,
  file_type: { key: 'pdf', extension: 'pdf', mime_type: 'application/pdf' },
  status: 'completed',
  status_history: [
    { status: 'processing', time: T0, message: 'Extraction started' },
    { status: 'completed', time: T0 + 4, message: 'Extraction completed' },
  ],
  metadata: { customer: 'acme' },
  created_at: T0,
  updated_at: T0 + 4,
  data: {
    fields: { values: { invoice_number: 'INV-1042' }, validations: {} },
    tables: {
      line_items: {
        pagination: { offset: 0, limit: 100, total: 2, next_offset: null, filter: 'all' },
        rows: [
          { index: 0, values: { description: 'Widget', amount: '12.50' }, validations: {} },
          { index: 1, values: { description: 'Gadget', amount: '-3' }, validations: { amount: [{ validate: 'min', severity: 'warn', message: 'Amount: -3 is less than the minimum 0' }] } },
        ],
      },
    },
  },
  stats: { fields: { valid: 1, invalid: 0, total: 1 }, tables: { line_items: { rows: { valid: 1, invalid: 1, total: 2 }, columns: { total: 2 } } } },
  template: snapshotExample,
};

/** Curated examples by component name; used where the component has none of its own. */
export const COMPONENT_EXAMPLES: Record<string, unknown> = {
  Template: templateExample,
  ExtractionSummary: summaryExample,
  ExtractionEventData: summaryExample,
  UploadResponse: { id: ext, workspace_id: ws, template_id: tpl, status: 'processing', metadata: { customer: 'acme' }, created_at: T0, updated_at: T0 },
  Extraction: extractionExample,
  TemplateSnapshot: snapshotExample,
  StatusEntry: { status: 'completed', time: T0 + 4, message: 'Extraction completed' },
  TemplatePatch: { name: 'Invoice (2025)' },
  WebhookAttempt: { attempt: 1, time: T0, status_code: 200, duration_ms: 38, error: null },
};

const FORMAT_SAMPLES: Record<string, string> = {
  uuid: '6c1f3a52-1d1e-4c5b-9a53-2c1e0c9d7f10',
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  email: 'someone@example.com',
  binary: '<file>',
};

class Sampler {
  constructor(private readonly doc: Json) {}

  component(ref: string): Json {
    return this.doc.components?.schemas?.[ref.replace('#/components/schemas/', '')] ?? {};
  }

  sample(schema: Json | undefined, depth = 0): unknown {
    if (!schema || depth > 12) return null;
    if (schema.example !== undefined) return schema.example;
    if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
    if (schema.$ref) return this.sample(this.component(schema.$ref), depth + 1);
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum[0];
    if (schema.default !== undefined) return schema.default;
    if (Array.isArray(schema.allOf)) {
      const parts = schema.allOf.map((s: Json) => this.sample(s, depth + 1));
      if (parts.every((p: unknown) => p && typeof p === 'object' && !Array.isArray(p))) return Object.assign({}, ...parts);
      return parts.find((p: unknown) => p !== null) ?? null;
    }
    const alternatives: Json[] | undefined = schema.anyOf ?? schema.oneOf;
    if (alternatives) {
      const first = alternatives.find((s) => s.type !== 'null') ?? alternatives[0];
      return this.sample(first, depth + 1);
    }
    const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : [];
    const type = types.find((t) => t !== 'null') ?? types[0];
    switch (type) {
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [key, prop] of Object.entries((schema.properties ?? {}) as Json)) out[key] = this.sample(prop as Json, depth + 1);
        return out;
      }
      case 'array': {
        const item = this.sample(schema.items, depth + 1);
        return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
      }
      case 'integer':
        return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      case 'number':
        return schema.minimum ?? 0;
      case 'boolean':
        return true;
      case 'string': {
        if (schema.format && FORMAT_SAMPLES[schema.format]) return FORMAT_SAMPLES[schema.format];
        const text = 'string';
        return schema.minLength && schema.minLength > text.length ? text.padEnd(schema.minLength, 'x') : text;
      }
      case 'null':
        return null;
      default:
        return {};
    }
  }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Adds the examples to a generated document in place and returns it. */
export function addExamples<T extends Json>(doc: T): T {
  const schemas = (doc.components?.schemas ?? {}) as Json;
  for (const [name, example] of Object.entries(COMPONENT_EXAMPLES)) {
    if (schemas[name] && schemas[name].example === undefined) schemas[name].example = example;
  }
  const sampler = new Sampler(doc);
  const fill = (content: Json | undefined) => {
    for (const [type, media] of Object.entries((content ?? {}) as Json)) {
      if (!(type.includes('json') || type.startsWith('multipart/')) || !media?.schema) continue;
      if (media.example === undefined && media.examples === undefined) media.example = sampler.sample(media.schema);
    }
  };
  for (const group of [doc.paths, doc.webhooks]) {
    for (const item of Object.values((group ?? {}) as Json)) {
      for (const method of METHODS) {
        const op = (item as Json)[method] as Json | undefined;
        if (!op) continue;
        fill(op.requestBody?.content);
        for (const response of Object.values((op.responses ?? {}) as Json)) fill((response as Json).content);
      }
    }
  }
  return doc;
}

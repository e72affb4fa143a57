import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reusableSteps, stepDefinition, type StepExecution } from '../../lib/flow-runs.js';
import {
  checkFlowDefinition,
  fileFieldOfPart,
  FlowDefinitionError,
  groupRunFiles,
  RunInputError,
  type FileFieldInput,
  type StepInput,
  type TemplateLookup,
} from '../../lib/flows.js';
import type { TemplateTable } from '../../lib/template.js';

const table = (key: string, columns: string[]): TemplateTable => ({
  key, name: key, columns: columns.map((c) => ({ key: c, name: c, data_type: 'string', required: false, validations: [], suggested_mappings: [] })),
});
const templates: TemplateLookup = new Map([
  ['tpl_inv', { id: 'tpl_inv', name: 'Invoice', fields: [{ key: 'total', name: 'Total', data_type: 'currency', required: false, validations: [] }], tables: [table('lines', ['sku', 'amount', 'qty'])] }],
  ['tpl_po', { id: 'tpl_po', name: 'PO', fields: [], tables: [table('items', ['sku', 'amount', 'vendor']), table('other', ['x'])] }],
]);
const fields: FileFieldInput[] = [
  { key: 'invoice', name: 'Invoice', required: true, file_types: ['csv'] },
  { key: 'po', name: 'PO', required: false, file_types: [], multiple: true, max_file_size: 100 },
];
const step = (s: Partial<StepInput> & { type: string }): StepInput => ({ title: s.type, ...s }) as StepInput;
const base = (): StepInput[] => [
  step({ id: 'inv', type: 'extraction', order: 1, config: { template_id: 'tpl_inv', file_key: 'invoice' } }),
  step({ id: 'po', type: 'extraction', order: 2, config: { template_id: 'tpl_po', file_key: 'po' } }),
];
let counter = 0;
const check = (steps: StepInput[], ff: FileFieldInput[] = fields) => checkFlowDefinition(ff, steps, templates, () => `step_${++counter}`);
const refused = (steps: StepInput[], message: RegExp, ff: FileFieldInput[] = fields) =>
  assert.throws(() => check(steps, ff), (e: Error) => e instanceof FlowDefinitionError && message.test(e.message));

describe('flow definitions', () => {
  it('normalises a valid definition: ids, orders, reconciliation defaults, export defaults', () => {
    const def = check([
      step({ type: 'export', order: 9 }),
      ...base(),
      step({ id: 'match', type: 'reconciliation', order: 3, config: { source_step_id_1: 'inv', source_step_id_2: 'po', table_key_1: 'lines', table_key_2: 'items' } }),
    ]);
    assert.deepEqual(def.steps.map((s) => s.id.startsWith('step_') ? 'generated' : s.id), ['inv', 'po', 'match', 'generated']);
    const match = def.steps[2]!.config;
    assert.deepEqual(match.match_on, [{ column_1: 'sku', column_2: 'sku' }]);
    assert.deepEqual(match.compare, [{ column_1: 'amount', column_2: 'amount' }]);
    assert.equal(match.tolerance, 0);
    assert.deepEqual(def.steps[3]!.config, { step_ids: ['inv', 'po', 'match'] });
    assert.deepEqual(def.file_input_config.file_fields[1], { key: 'po', name: 'PO', required: false, file_types: [], max_file_size: 100, multiple: true });
  });

  it('defaults orders to positions and refuses duplicates', () => {
    const def = check([step({ type: 'review' }), step({ type: 'review' })]);
    assert.deepEqual(def.steps.map((s) => s.order), [1, 2]);
    refused([step({ type: 'review', order: 1 }), step({ type: 'review', order: 1 })], /orders must be unique/);
    refused([step({ id: 'a', type: 'review' }), step({ id: 'a', type: 'review' })], /Duplicate step id 'a'/);
  });

  it('refuses unknown step types and unknown config fields', () => {
    refused([step({ type: 'email' })], /unknown type 'email'; step types are extraction, reconciliation, review, verify, export/);
    refused([step({ type: 'review', config: { wait: 1 } })], /unknown config field 'wait'/);
  });

  it('checks extraction steps: template and file field', () => {
    refused([step({ type: 'extraction', config: { template_id: 'tpl_gone', file_key: 'invoice' } })], /template 'tpl_gone' was not found/);
    refused([step({ type: 'extraction', config: { template_id: 'tpl_inv', file_key: 'nope' } })], /file_key 'nope' is not a file field/);
    refused([step({ type: 'extraction', config: { file_key: 'invoice' } })], /config\.template_id is required/);
  });

  it('checks reconciliation steps: earlier extraction steps, their tables, columns', () => {
    const rec = (config: Record<string, unknown>, order = 3) => step({ id: 'm', type: 'reconciliation', order, config: { source_step_id_1: 'inv', source_step_id_2: 'po', table_key_1: 'lines', table_key_2: 'items', ...config } });
    refused([...base(), rec({}, 0)], /step 'inv' must come before this step/);
    refused([...base(), rec({ source_step_id_2: 'zzz' })], /step 'zzz' does not exist/);
    refused([...base(), rec({ table_key_2: 'lines' })], /table_key_2 'lines' is not a table of the template of step 'po'/);
    refused([...base(), rec({ table_key_2: 'other' })], /share no column key/);
    refused([...base(), rec({ match_on: ['qty'] })], /column 'qty' is not a column of table 'items'/);
    refused([...base(), rec({ tolerance: -1 })], /tolerance must be 0 or more/);
    refused([...base(), step({ id: 'r', type: 'review', order: 3 }), step({ type: 'reconciliation', order: 4, config: { source_step_id_1: 'r', source_step_id_2: 'po', table_key_1: 'a', table_key_2: 'items' } })], /'r' is a review step; expected extraction/);
    const ok = check([...base(), rec({ match_on: [{ column_1: 'sku', column_2: 'vendor' }], compare: ['amount'], tolerance: 0.5 })]);
    assert.deepEqual(ok.steps[2]!.config.match_on, [{ column_1: 'sku', column_2: 'vendor' }]);
  });

  it('checks verify rules and export steps', () => {
    const verify = (rules: unknown) => [...base(), step({ type: 'verify', order: 5, config: { rules } })];
    refused(verify([]), /config\.rules must be a non-empty array/);
    refused(verify([{ type: 'magic', step_id: 'inv' }]), /rule 1: unknown rule type 'magic'/);
    refused(verify([{ type: 'sum_equals_field', step_id: 'inv', table_key: 'lines', column: 'amount', field: 'nope' }]), /'nope' is not a field of template 'Invoice'/);
    refused(verify([{ type: 'row_count_at_least', step_id: 'inv', table_key: 'lines' }]), /config\.value is required/);
    refused(verify([{ type: 'all_matched', step_id: 'inv' }]), /is a extraction step; expected reconciliation/);
    const ok = check(verify([{ type: 'sum_equals_field', step_id: 'inv', table_key: 'lines', column: 'amount', field: 'total' }]));
    assert.equal((ok.steps[2]!.config.rules as { tolerance: number }[])[0]!.tolerance, 0.005);
    refused([step({ type: 'export' })], /no earlier extraction or reconciliation step to export/);
    refused([...base(), step({ type: 'export', config: { step_ids: ['nope'] } })], /step 'nope' does not exist/);
  });

  it('checks file fields', () => {
    refused([], /Duplicate file field key 'a'/, [{ key: 'a' }, { key: 'a' }]);
    refused([], /'name' and 'metadata' are reserved/, [{ key: 'metadata' }]);
    refused([], /may not end in _metadata/, [{ key: 'x_guidance' }]);
    refused([], /file type 'docx' is not a kind/, [{ key: 'a', file_types: ['docx'] }]);
    assert.throws(() => check([], [{ key: '1bad' }]));
  });
});

describe('run files', () => {
  const ff = check([], fields).file_input_config.file_fields;
  const file = (part: string, fileName = 'a.csv', size = 10) => ({ part, fileName, size, objectKey: `k/${part}` });

  it('maps parts to fields', () => {
    assert.equal(fileFieldOfPart(ff, 'invoice')?.field.key, 'invoice');
    assert.deepEqual(fileFieldOfPart(ff, 'po_2')?.index, 2);
    assert.equal(fileFieldOfPart(ff, 'invoice_1'), null);
    assert.equal(fileFieldOfPart(ff, 'po_0'), null);
  });

  it('groups files by field in index order', () => {
    const grouped = groupRunFiles(ff, [file('po_2', 'b.xlsx'), file('invoice'), file('po_1', 'a.pdf')], 1000);
    assert.deepEqual(grouped.po!.map((f) => [f.index, f.part, f.file_name, f.file_type.key]), [[1, 'po_1', 'a.pdf', 'pdf'], [2, 'po_2', 'b.xlsx', 'excel']]);
  });

  it('names the part or field of each refusal', () => {
    const refusedRun = (files: ReturnType<typeof file>[], message: RegExp) =>
      assert.throws(() => groupRunFiles(ff, files, 1000), (e: Error) => e instanceof RunInputError && message.test(e.message));
    refusedRun([], /The file field 'invoice' \(Invoice\) is required/);
    refusedRun([file('invoice'), file('other')], /Unknown file part 'other'/);
    refusedRun([file('invoice', 'a.pdf')], /File 'a\.pdf' of part 'invoice' is of kind pdf; file field 'invoice' accepts csv/);
    refusedRun([file('invoice'), file('po_1', 'big.csv', 101)], /File 'big\.csv' of part 'po_1' is 101 bytes, over the limit of 100 bytes for file field 'po'/);
    refusedRun([file('invoice', 'a.csv', 2000)], /over the limit of 1000 bytes/);
    refusedRun([file('invoice', 'a.csv', 0)], /is empty/);
    refusedRun([file('invoice', 'a.docx')], /type 'docx', which is not supported/);
    refusedRun([file('invoice'), file('invoice')], /accepts one file/);
  });
});

describe('reruns reuse the leading steps that succeeded unchanged', () => {
  const steps = check(base()).steps;
  const exec = (stepId: string, attempt: number, status: StepExecution['status'], definition = stepDefinition(steps.find((s) => s.id === stepId)!)): StepExecution => ({
    step_id: stepId, title: stepId, type: 'extraction', attempt, status, started_at: 0, ended_at: 0, duration: 0, output: null, error: null, start_ms: 0, definition,
  });
  it('stops at the first step that failed or changed', () => {
    assert.deepEqual(reusableSteps(steps, [exec('inv', 1, 'succeeded'), exec('po', 1, 'failed')], 2), [{ step_id: 'inv', from_attempt: 1 }]);
    assert.deepEqual(reusableSteps(steps, [exec('inv', 1, 'succeeded', 'old'), exec('po', 1, 'failed')], 2), []);
    assert.deepEqual(reusableSteps(steps, [exec('inv', 1, 'succeeded'), exec('po', 1, 'failed'), exec('po', 2, 'succeeded')], 3).map((r) => r.from_attempt), [1, 2]);
  });
});

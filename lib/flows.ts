// Flow definitions (spec 2.5): their shape, the checks made when one is saved, and the rules a
// run's files must follow (spec 4.8). Shared by the API, the CLI and the flow activities; knows
// nothing of HTTP or Temporal.
import { z } from '@hono/zod-openapi';
import { fileTypeOf, kindOf, SUPPORTED_EXTENSIONS, type FileType } from './file-types.js';
import { newId } from './ids.js';
import type { TemplateSnapshot } from './template.js';

export const STEP_TYPES = ['extraction', 'reconciliation', 'review', 'verify', 'export'] as const;
export type StepType = (typeof STEP_TYPES)[number];

/** Outputs of a reconciliation step, usable as `table_key` by verify rules and exports. */
export const RECONCILIATION_TABLES = ['matched', 'mismatched', 'unmatched_1', 'unmatched_2'] as const;

export const VERIFY_RULE_TYPES = ['all_rows_valid', 'row_count_at_least', 'row_count_at_most', 'sum_equals_field', 'all_matched'] as const;
export type VerifyRuleType = (typeof VERIFY_RULE_TYPES)[number];

/** A file field key is also a multipart part name, so it may not collide with the other parts. */
const FILE_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const STEP_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export const FileFieldSchema = z
  .object({
    key: z.string().regex(FILE_KEY, 'must start with a letter and hold only letters, digits, _ and - (at most 64)'),
    name: z.string().min(1).optional().openapi({ description: 'Display name; defaults to the key' }),
    required: z.boolean().default(false),
    file_types: z.array(z.string()).default([]).openapi({ description: 'Kinds (pdf, excel, csv, tsv, image) or extensions; empty accepts every supported type' }),
    max_file_size: z.number().int().positive().optional().openapi({ description: 'Bytes' }),
    multiple: z.boolean().default(false).openapi({ description: 'Several files, sent as <key>_1, <key>_2, …' }),
  })
  .openapi('FileField');

export const StepInputSchema = z
  .object({
    id: z.string().regex(STEP_ID, 'must hold only letters, digits, _ and - (at most 64)').optional().openapi({ description: 'Unique within the flow; generated when absent' }),
    title: z.string().min(1),
    description: z.string().optional(),
    type: z.string().openapi({ description: `One of ${STEP_TYPES.join(', ')}` }),
    order: z.number().finite().optional().openapi({ description: 'Execution order, unique within the flow; defaults to the position (1-based)' }),
    config: z.record(z.string(), z.unknown()).optional().openapi({
      description:
        'extraction: {template_id, file_key}. reconciliation: {source_step_id_1, source_step_id_2, table_key_1, table_key_2, match_on?, compare?, tolerance?} ' +
        '(match_on/compare: column keys present in both tables, or {column_1, column_2} pairs). review: {timeout_seconds?, on_timeout?: reject|approve, instructions?}. ' +
        `verify: {rules: [{type: ${VERIFY_RULE_TYPES.join('|')}, step_id, table_key?, value?, column?, field?, tolerance?, name?}]}. export: {step_ids?, file_name?}`,
    }),
  })
  .openapi('FlowStepInput');

export const FlowInputSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    file_input_config: z.object({ file_fields: z.array(FileFieldSchema).default([]) }).default({ file_fields: [] }),
    steps: z.array(StepInputSchema).default([]),
    active: z.boolean().default(true),
  })
  .openapi('FlowInput');

export const FlowPatchSchema = z
  .object({
    name: z.string().min(1).optional(),
    description: z.string().nullable().optional(),
    file_input_config: z.object({ file_fields: z.array(FileFieldSchema) }).optional(),
    steps: z.array(StepInputSchema).optional(),
    active: z.boolean().optional(),
  })
  .openapi('FlowPatch');

export type FileFieldInput = z.input<typeof FileFieldSchema>;
export type StepInput = z.output<typeof StepInputSchema>;

export interface FileField {
  key: string;
  name: string;
  required: boolean;
  file_types: string[];
  max_file_size?: number;
  multiple: boolean;
}

export interface FlowStep {
  id: string;
  title: string;
  description?: string;
  type: StepType;
  order: number;
  config: Record<string, unknown>;
}

export interface ColumnPair {
  column_1: string;
  column_2: string;
}

export interface ExtractionConfig {
  template_id: string;
  file_key: string;
}
export interface ReconciliationConfig {
  source_step_id_1: string;
  source_step_id_2: string;
  table_key_1: string;
  table_key_2: string;
  match_on: ColumnPair[];
  compare: ColumnPair[];
  tolerance: number;
}
export interface ReviewConfig {
  timeout_seconds?: number;
  on_timeout: 'reject' | 'approve';
  instructions?: string;
}
export interface VerifyRule {
  type: VerifyRuleType;
  name?: string;
  step_id: string;
  table_key?: string;
  value?: number;
  column?: string;
  field?: string;
  tolerance?: number;
}
export interface VerifyConfig {
  rules: VerifyRule[];
}
export interface ExportConfig {
  step_ids: string[];
  file_name?: string;
}

/** What a saved flow holds (the `file_input_config` and `steps` columns), normalised. */
export interface FlowDefinition {
  file_input_config: { file_fields: FileField[] };
  steps: FlowStep[];
}

/** A flow as a run keeps it (spec 2.6 `flow`): the definition at execution time. */
export interface FlowSnapshot extends FlowDefinition {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  active: boolean;
  updated_at: number;
}

export class FlowDefinitionError extends Error {}

const fail = (message: string): never => {
  throw new FlowDefinitionError(message);
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function str(config: Record<string, unknown>, key: string, where: string, required = true): string | undefined {
  const v = config[key];
  if (v === undefined || v === null || v === '') return required ? fail(`${where}: config.${key} is required`) : undefined;
  if (typeof v !== 'string') return fail(`${where}: config.${key} must be a string`);
  return v;
}

function num(config: Record<string, unknown>, key: string, where: string, required = false): number | undefined {
  const v = config[key];
  if (v === undefined || v === null) return required ? fail(`${where}: config.${key} is required`) : undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) return fail(`${where}: config.${key} must be a number`);
  return v;
}

function knownKeys(config: Record<string, unknown>, allowed: string[], where: string): void {
  for (const key of Object.keys(config)) {
    if (!allowed.includes(key)) fail(`${where}: unknown config field '${key}' (allowed: ${allowed.join(', ')})`);
  }
}

/** `['a', {column_1: 'b', column_2: 'c'}]` → pairs. */
function columnPairs(raw: unknown, key: string, where: string): ColumnPair[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list)) return fail(`${where}: config.${key} must be an array of column keys or {column_1, column_2} pairs`);
  return list.map((item) => {
    if (typeof item === 'string' && item) return { column_1: item, column_2: item };
    if (isRecord(item) && typeof item.column_1 === 'string' && typeof item.column_2 === 'string') return { column_1: item.column_1, column_2: item.column_2 };
    return fail(`${where}: config.${key} entries must be column keys or {column_1, column_2} pairs`);
  });
}

export function normalizeFileFields(fields: FileFieldInput[]): FileField[] {
  const seen = new Set<string>();
  return fields.map((f) => {
    const parsed = FileFieldSchema.parse(f);
    const where = `File field '${parsed.key}'`;
    if (seen.has(parsed.key)) fail(`Duplicate file field key '${parsed.key}'`);
    seen.add(parsed.key);
    if (parsed.key === 'name' || parsed.key === 'metadata') fail(`${where}: 'name' and 'metadata' are reserved part names`);
    if (/_(metadata|guidance|\d+)$/.test(parsed.key)) fail(`${where}: a key may not end in _metadata, _guidance or _<number> (those are part names derived from keys)`);
    for (const t of parsed.file_types) {
      if (!kindOf(t)) fail(`${where}: file type '${t}' is not a kind (pdf, excel, csv, tsv, image) or a supported extension (${SUPPORTED_EXTENSIONS.join(', ')})`);
    }
    return {
      key: parsed.key,
      name: parsed.name ?? parsed.key,
      required: parsed.required,
      file_types: parsed.file_types,
      ...(parsed.max_file_size !== undefined ? { max_file_size: parsed.max_file_size } : {}),
      multiple: parsed.multiple,
    };
  });
}

/** Template tables by key; templates are looked up by id by the caller (scoped to the workspace). */
export type TemplateLookup = Map<string, Pick<TemplateSnapshot, 'id' | 'name' | 'fields' | 'tables'>>;

/** Template ids named by extraction steps, to fetch before `checkFlowDefinition`. */
export function templateIdsOf(steps: StepInput[]): string[] {
  return [...new Set(steps.filter((s) => s.type === 'extraction' && typeof s.config?.template_id === 'string').map((s) => s.config!.template_id as string))];
}

/**
 * Checks a definition as a whole and returns it normalised (ids filled, orders set, configs
 * with their defaults). Throws FlowDefinitionError with a message naming the step and field.
 */
export function checkFlowDefinition(fileFieldsInput: FileFieldInput[], stepsInput: StepInput[], templates: TemplateLookup, generateId: () => string = () => newId('step')): FlowDefinition {
  const fileFields = normalizeFileFields(fileFieldsInput);
  const ids = new Set<string>();
  const orders = new Map<number, string>();
  const steps: FlowStep[] = stepsInput.map((s, i) => {
    const where = `Step ${i + 1} ('${s.title}')`;
    if (!(STEP_TYPES as readonly string[]).includes(s.type)) fail(`${where} has unknown type '${s.type}'; step types are ${STEP_TYPES.join(', ')}`);
    const id = s.id ?? generateId();
    if (ids.has(id)) fail(`Duplicate step id '${id}'`);
    ids.add(id);
    const order = s.order ?? i + 1;
    const clash = orders.get(order);
    if (clash !== undefined) fail(`${where} has order ${order}, which step '${clash}' already has; orders must be unique`);
    orders.set(order, id);
    return { id, title: s.title, ...(s.description !== undefined ? { description: s.description } : {}), type: s.type as StepType, order, config: { ...(s.config ?? {}) } };
  });
  steps.sort((a, b) => a.order - b.order);

  const byId = new Map(steps.map((s) => [s.id, s]));
  const position = new Map(steps.map((s, i) => [s.id, i]));
  const tableOf = (step: FlowStep, tableKey: string) => {
    const template = templates.get((step.config as unknown as ExtractionConfig).template_id);
    return template?.tables.find((t) => t.key === tableKey);
  };
  const earlier = (current: FlowStep, refId: string, where: string, types: StepType[]): FlowStep => {
    const ref = byId.get(refId) ?? fail(`${where}: step '${refId}' does not exist in this flow`);
    if (position.get(ref.id)! >= position.get(current.id)!) fail(`${where}: step '${refId}' must come before this step (lower order)`);
    if (!types.includes(ref.type)) fail(`${where}: step '${refId}' is a ${ref.type} step; expected ${types.join(' or ')}`);
    return ref;
  };

  for (const step of steps) {
    const where = `Step '${step.id}' (${step.type})`;
    const c = step.config;
    switch (step.type) {
      case 'extraction': {
        knownKeys(c, ['template_id', 'file_key'], where);
        const templateId = str(c, 'template_id', where)!;
        const fileKey = str(c, 'file_key', where)!;
        if (!templates.has(templateId)) fail(`${where}: template '${templateId}' was not found`);
        if (!fileFields.some((f) => f.key === fileKey)) fail(`${where}: file_key '${fileKey}' is not a file field of this flow (${fileFields.map((f) => f.key).join(', ') || 'none declared'})`);
        step.config = { template_id: templateId, file_key: fileKey } satisfies ExtractionConfig;
        break;
      }
      case 'reconciliation': {
        knownKeys(c, ['source_step_id_1', 'source_step_id_2', 'table_key_1', 'table_key_2', 'match_on', 'compare', 'tolerance'], where);
        const sides = ([1, 2] as const).map((n) => {
          const source = earlier(step, str(c, `source_step_id_${n}`, where)!, where, ['extraction']);
          const tableKey = str(c, `table_key_${n}`, where)!;
          const table = tableOf(source, tableKey) ?? fail(`${where}: table_key_${n} '${tableKey}' is not a table of the template of step '${source.id}'`);
          return { source, tableKey, columns: table.columns.map((col) => col.key) };
        });
        const [one, two] = sides as [(typeof sides)[0], (typeof sides)[0]];
        const common = one.columns.filter((k) => two.columns.includes(k));
        const matchOn = columnPairs(c.match_on, 'match_on', where) ?? (common[0] ? [{ column_1: common[0], column_2: common[0] }] : fail(`${where}: the two tables share no column key; give config.match_on as {column_1, column_2} pairs`));
        if (matchOn.length === 0) fail(`${where}: config.match_on must name at least one column`);
        const compare = columnPairs(c.compare, 'compare', where) ?? common.filter((k) => !matchOn.some((m) => m.column_1 === k)).map((k) => ({ column_1: k, column_2: k }));
        for (const pair of [...matchOn, ...compare]) {
          if (!one.columns.includes(pair.column_1)) fail(`${where}: column '${pair.column_1}' is not a column of table '${one.tableKey}'`);
          if (!two.columns.includes(pair.column_2)) fail(`${where}: column '${pair.column_2}' is not a column of table '${two.tableKey}'`);
        }
        const tolerance = num(c, 'tolerance', where) ?? 0;
        if (tolerance < 0) fail(`${where}: config.tolerance must be 0 or more`);
        step.config = {
          source_step_id_1: one.source.id, source_step_id_2: two.source.id, table_key_1: one.tableKey, table_key_2: two.tableKey,
          match_on: matchOn, compare, tolerance,
        } satisfies ReconciliationConfig;
        break;
      }
      case 'review': {
        knownKeys(c, ['timeout_seconds', 'on_timeout', 'instructions'], where);
        const timeout = num(c, 'timeout_seconds', where);
        if (timeout !== undefined && timeout <= 0) fail(`${where}: config.timeout_seconds must be positive`);
        const onTimeout = c.on_timeout ?? 'reject';
        if (onTimeout !== 'reject' && onTimeout !== 'approve') fail(`${where}: config.on_timeout must be reject or approve`);
        const instructions = str(c, 'instructions', where, false);
        step.config = {
          ...(timeout !== undefined ? { timeout_seconds: timeout } : {}),
          on_timeout: onTimeout as 'reject' | 'approve',
          ...(instructions ? { instructions } : {}),
        } satisfies ReviewConfig;
        break;
      }
      case 'verify': {
        knownKeys(c, ['rules'], where);
        if (!Array.isArray(c.rules) || c.rules.length === 0) fail(`${where}: config.rules must be a non-empty array`);
        const rules = (c.rules as unknown[]).map((raw, r) => checkVerifyRule(raw, `${where} rule ${r + 1}`, step, earlier, tableOf, templates));
        step.config = { rules } satisfies VerifyConfig;
        break;
      }
      case 'export': {
        knownKeys(c, ['step_ids', 'file_name'], where);
        let stepIds: string[];
        if (c.step_ids === undefined) {
          stepIds = steps.slice(0, position.get(step.id)).filter((s) => s.type === 'extraction' || s.type === 'reconciliation').map((s) => s.id);
        } else {
          if (!Array.isArray(c.step_ids) || c.step_ids.some((v) => typeof v !== 'string')) fail(`${where}: config.step_ids must be an array of step ids`);
          stepIds = (c.step_ids as string[]).map((id) => earlier(step, id, where, ['extraction', 'reconciliation']).id);
        }
        if (stepIds.length === 0) fail(`${where}: there is no earlier extraction or reconciliation step to export`);
        const fileName = str(c, 'file_name', where, false);
        if (fileName !== undefined && !/^[^/\\]{1,120}$/.test(fileName)) fail(`${where}: config.file_name must be a plain file name`);
        step.config = { step_ids: stepIds, ...(fileName ? { file_name: fileName } : {}) } satisfies ExportConfig;
        break;
      }
    }
  }
  return { file_input_config: { file_fields: fileFields }, steps };
}

function checkVerifyRule(
  raw: unknown,
  where: string,
  step: FlowStep,
  earlier: (current: FlowStep, refId: string, where: string, types: StepType[]) => FlowStep,
  tableOf: (step: FlowStep, key: string) => { columns: { key: string }[] } | undefined,
  templates: TemplateLookup,
): VerifyRule {
  if (!isRecord(raw)) return fail(`${where} must be an object`);
  const type = raw.type;
  if (typeof type !== 'string' || !(VERIFY_RULE_TYPES as readonly string[]).includes(type)) {
    return fail(`${where}: unknown rule type '${String(type)}'; rule types are ${VERIFY_RULE_TYPES.join(', ')}`);
  }
  knownKeys(raw, ['type', 'name', 'step_id', 'table_key', 'value', 'column', 'field', 'tolerance'], where);
  const rule: VerifyRule = { type: type as VerifyRuleType, step_id: str(raw, 'step_id', where)! };
  const name = str(raw, 'name', where, false);
  if (name) rule.name = name;
  const needsTable = type !== 'all_matched';
  const sourceTypes: StepType[] = type === 'all_matched' ? ['reconciliation'] : type === 'row_count_at_least' || type === 'row_count_at_most' ? ['extraction', 'reconciliation'] : ['extraction'];
  const source = earlier(step, rule.step_id, where, sourceTypes);
  if (needsTable) {
    const tableKey = str(raw, 'table_key', where)!;
    rule.table_key = tableKey;
    if (source.type === 'reconciliation') {
      if (!(RECONCILIATION_TABLES as readonly string[]).includes(tableKey)) fail(`${where}: a reconciliation step's tables are ${RECONCILIATION_TABLES.join(', ')}`);
    } else {
      const table = tableOf(source, tableKey) ?? fail(`${where}: '${tableKey}' is not a table of the template of step '${source.id}'`);
      if (type === 'sum_equals_field') {
        const column = str(raw, 'column', where)!;
        if (!table.columns.some((c) => c.key === column)) fail(`${where}: '${column}' is not a column of table '${tableKey}'`);
        const field = str(raw, 'field', where)!;
        const template = templates.get((source.config as unknown as ExtractionConfig).template_id)!;
        if (!template.fields.some((f) => f.key === field)) fail(`${where}: '${field}' is not a field of template '${template.name}'`);
        rule.column = column;
        rule.field = field;
        const tolerance = num(raw, 'tolerance', where) ?? 0.005;
        if (tolerance < 0) fail(`${where}: tolerance must be 0 or more`);
        rule.tolerance = tolerance;
      }
    }
  }
  if (type === 'row_count_at_least' || type === 'row_count_at_most') {
    const value = num(raw, 'value', where, true)!;
    if (!Number.isInteger(value) || value < 0) fail(`${where}: value must be a whole number, 0 or more`);
    rule.value = value;
  }
  return rule;
}

/** A rule as a reader sees it: its name or a description of what it checks. */
export function describeRule(rule: VerifyRule): string {
  if (rule.name) return rule.name;
  const table = `${rule.step_id}.${rule.table_key ?? ''}`;
  switch (rule.type) {
    case 'all_rows_valid':
      return `all rows of ${table} are valid`;
    case 'row_count_at_least':
      return `${table} has at least ${rule.value} rows`;
    case 'row_count_at_most':
      return `${table} has at most ${rule.value} rows`;
    case 'sum_equals_field':
      return `sum of ${rule.column} in ${table} equals field ${rule.field}`;
    case 'all_matched':
      return `every row of ${rule.step_id} is matched without differences`;
  }
}

// ---------------------------------------------------------------------------------------------
// Run files (spec 4.8): which part belongs to which field, and the checks on each file.

export class RunInputError extends Error {}

/** A part name → its file field and 1-based index (`key` is index 1 of a single field). */
export function fileFieldOfPart(fields: FileField[], part: string): { field: FileField; index: number } | null {
  const exact = fields.find((f) => f.key === part);
  if (exact) return { field: exact, index: 0 };
  const m = /^(.+)_(\d+)$/.exec(part);
  if (m) {
    const field = fields.find((f) => f.key === m[1] && f.multiple);
    if (field && Number(m[2]) >= 1) return { field, index: Number(m[2]) };
  }
  return null;
}

/** Why a file may not go into a field, or null when it may (checked before and after upload). */
export function refuseFile(field: FileField, part: string, fileName: string, size: number | null, globalLimit: number): string | null {
  const type = fileTypeOf(fileName);
  const label = `File '${fileName}' of part '${part}'`;
  if (!type) return `${label} has type '${fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : ''}', which is not supported. Supported types: ${SUPPORTED_EXTENSIONS.join(', ')}`;
  if (field.file_types.length && !field.file_types.some((t) => kindOf(t) === type.key)) {
    return `${label} is of kind ${type.key}; file field '${field.key}' accepts ${field.file_types.join(', ')}`;
  }
  if (size !== null) {
    const limit = Math.min(field.max_file_size ?? Infinity, globalLimit);
    if (size > limit) return `${label} is ${size} bytes, over the limit of ${limit} bytes for file field '${field.key}'`;
    if (size === 0) return `${label} is empty`;
  }
  return null;
}

export interface ReceivedRunFile {
  part: string;
  fileName: string;
  size: number;
  objectKey?: string;
}

export interface RunInputFile {
  /** 1-based position within the field */
  index: number;
  part: string;
  file_name: string;
  file_size: number;
  file_type: { key: string; extension: string; mime_type: string };
  object_key: string;
}

/**
 * Checks the parts received for a run against the flow's file fields and groups them by field.
 * Throws RunInputError naming the part or field at the first problem.
 */
export function groupRunFiles(fields: FileField[], files: ReceivedRunFile[], globalLimit: number): Record<string, RunInputFile[]> {
  const grouped: Record<string, { sort: number; file: ReceivedRunFile }[]> = {};
  for (const file of files) {
    const owner = fileFieldOfPart(fields, file.part);
    if (!owner) {
      const keys = fields.map((f) => (f.multiple ? `${f.key}_1, ${f.key}_2, …` : f.key)).join('; ');
      throw new RunInputError(`Unknown file part '${file.part}': this flow's file parts are ${keys || 'none'}`);
    }
    const refusal = refuseFile(owner.field, file.part, file.fileName, file.size, globalLimit);
    if (refusal) throw new RunInputError(refusal);
    const list = (grouped[owner.field.key] ??= []);
    if (!owner.field.multiple && list.length) throw new RunInputError(`File field '${owner.field.key}' accepts one file; ${list.length + 1} were sent`);
    if (list.some((f) => f.sort === owner.index)) throw new RunInputError(`File part '${file.part}' was sent twice`);
    list.push({ sort: owner.index, file });
  }
  for (const field of fields) {
    if (field.required && !grouped[field.key]?.length) {
      throw new RunInputError(`The file field '${field.key}' (${field.name}) is required${field.multiple ? `; send its files as parts ${field.key}_1, ${field.key}_2, …` : ''}`);
    }
  }
  const out: Record<string, RunInputFile[]> = {};
  for (const [key, list] of Object.entries(grouped)) {
    out[key] = list
      .sort((a, b) => a.sort - b.sort)
      .map(({ file }, i) => {
        const type = fileTypeOf(file.fileName) as FileType;
        return {
          index: i + 1,
          part: file.part,
          file_name: file.fileName,
          file_size: file.size,
          file_type: { key: type.key, extension: type.extension, mime_type: type.mimeType },
          object_key: file.objectKey ?? '',
        };
      });
  }
  return out;
}

/** Where a run's input file is kept; `seq` is the part's position in the request. */
export function runInputObjectKey(workspaceId: string, runId: string, seq: number, part: string): string {
  return `flow-runs/${workspaceId}/${runId}/inputs/${seq}-${part.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

// Template shape shared by the API (validation, OpenAPI) and the extraction activities.
import { z } from '@hono/zod-openapi';

export const DATA_TYPES = [
  'string', 'integer', 'number', 'currency', 'percent', 'date', 'datetime', 'boolean', 'email', 'url', 'phone',
] as const;
export type DataType = (typeof DATA_TYPES)[number];

export const VALIDATION_TYPES = [
  'required', 'regex', 'enum', 'min', 'max', 'min_length', 'max_length', 'unique',
] as const;
export type ValidationType = (typeof VALIDATION_TYPES)[number];

export const SEVERITIES = ['error', 'warn', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const KEY_PATTERN = /^[a-z][a-z0-9_]*$/;

export const ValidationRuleSchema = z
  .object({
    type: z.enum(VALIDATION_TYPES),
    value: z.union([z.string(), z.number()]).transform((v) => String(v)).optional(),
    severity: z.enum(SEVERITIES).default('error'),
    message: z.string().optional(),
  })
  .openapi('ValidationRule');
export type ValidationRule = z.output<typeof ValidationRuleSchema>;

const keySchema = z.string().regex(KEY_PATTERN, 'must match ^[a-z][a-z0-9_]*$');

export const TemplateFieldInputSchema = z
  .object({
    key: keySchema.optional(),
    name: z.string().min(1),
    data_type: z.enum(DATA_TYPES).default('string'),
    required: z.boolean().default(false),
    description: z.string().optional(),
    validations: z.array(ValidationRuleSchema).default([]),
  })
  .openapi('TemplateField');

export const TemplateColumnInputSchema = TemplateFieldInputSchema.extend({
  suggested_mappings: z.array(z.string()).default([]),
}).openapi('TemplateColumn');

export const TemplateTableInputSchema = z
  .object({
    key: keySchema.optional(),
    name: z.string().min(1),
    columns: z.array(TemplateColumnInputSchema).min(1),
  })
  .openapi('TemplateTable');

export interface TemplateField {
  key: string;
  name: string;
  data_type: DataType;
  required: boolean;
  description?: string;
  validations: ValidationRule[];
}
export interface TemplateColumn extends TemplateField {
  suggested_mappings: string[];
}
export interface TemplateTable {
  key: string;
  name: string;
  columns: TemplateColumn[];
}

/** What an extraction keeps of its template (spec 2.1 `template`, plus what validation needs). */
export interface TemplateSnapshot {
  id: string;
  name: string;
  file_types: string[];
  fields: TemplateField[];
  tables: TemplateTable[];
}

/** `Invoice Number` -> `invoice_number`; keys must start with a letter. */
export function keyFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!base) return 'field';
  return /^[a-z]/.test(base) ? base : `c_${base}`;
}

/** Fills default keys and makes them unique within the list (`amount`, `amount_2`). */
export function withKeys<T extends { key?: string | undefined; name: string }>(items: T[]): (T & { key: string })[] {
  const seen = new Set<string>();
  return items.map((item) => {
    let key = item.key ?? keyFromName(item.name);
    if (item.key === undefined) {
      const stem = key;
      for (let n = 2; seen.has(key); n++) key = `${stem}_${n}`;
    }
    seen.add(key);
    return { ...item, key };
  });
}

// The legacy v1 importer (spec 2.7, 4.12): a named template of columns. Create fills every field
// left out; get returns the importer exactly as stored. Each importer also becomes an extraction
// template whose id is the importer's template id, so that id works as `template_id` in uploads.
import { randomUUID } from 'node:crypto';
import { createRoute, OpenAPIHono, z, type Hook } from '@hono/zod-openapi';
import { keyFromName, KEY_PATTERN, withKeys, type Severity, type TemplateColumn, type TemplateTable, type ValidationRule, type ValidationType } from '../../lib/template.js';
import type { AppDeps, AppEnv } from '../context.js';
import { badRequest, conflict, describeZodError, errorResponses, notFound } from '../errors.js';

const security = [{ bearerAuth: [] }];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid = () => z.string().regex(UUID, 'must be a UUID');

// ---- request -------------------------------------------------------------------------------

const ValidationInputSchema = z
  .object({
    id: z.number().int().optional(),
    message: z.string().optional(),
    severity: z.string().min(1).optional(),
    type: z.string().min(1),
    value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  })
  .openapi('ImporterValidationInput');

const ColumnInputSchema = z
  .object({
    id: uuid().optional(),
    key: z.string().min(1).optional(),
    name: z.string().min(1),
    description: z.string().optional(),
    required: z.boolean().optional(),
    suggested_mappings: z.array(z.string()).optional(),
    validations: z.array(ValidationInputSchema).optional(),
  })
  .openapi('ImporterColumnInput');

const ImporterInputSchema = z
  .object({
    id: uuid().optional(),
    name: z.string().min(1),
    template: z.object({
      id: uuid().optional(),
      name: z.string().min(1).optional(),
      columns: z.array(ColumnInputSchema).min(1, 'at least one column is required'),
    }),
  })
  .openapi('ImporterInput', {
    description: 'Only `name` and each column\'s `name` are needed; every other field is filled in.',
    example: { name: 'Contacts', template: { columns: [{ name: 'First Name' }, { name: 'Email' }] } },
  });

// ---- response ------------------------------------------------------------------------------

const fullExample = {
  id: '6c1f3a52-1d1e-4c5b-9a53-2c1e0c9d7f10',
  name: 'Contacts',
  template: {
    id: '0f5b8c2e-7a4d-4e0b-8d1c-5e6f7a8b9c0d',
    name: 'Contacts',
    columns: [
      { id: 'a3c9e1f2-4b5d-4e6f-8a7b-9c0d1e2f3a4b', key: 'first_name', name: 'First Name', description: '', required: false, suggested_mappings: [], validations: [] },
      {
        id: 'b4d0f2a3-5c6e-4f70-9b8c-0d1e2f3a4b5c', key: 'email', name: 'Email', description: 'Work email', required: true, suggested_mappings: ['E-mail', 'Mail'],
        validations: [{ id: 1, message: 'Not an email address', severity: 'error', type: 'regex', value: '^[^@\\s]+@[^@\\s]+$' }],
      },
    ],
  },
};

const ValidationSchema = z
  .object({ id: z.number().int(), message: z.string(), severity: z.string(), type: z.string(), value: z.string() })
  .openapi('ImporterValidation', { example: fullExample.template.columns[1]!.validations[0] });

const ColumnSchema = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    key: z.string(),
    name: z.string(),
    description: z.string(),
    required: z.boolean(),
    suggested_mappings: z.array(z.string()),
    validations: z.array(ValidationSchema),
  })
  .openapi('ImporterColumn');

const ImporterSchema = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    template: z.object({ id: z.string().openapi({ format: 'uuid' }), name: z.string(), columns: z.array(ColumnSchema) }),
  })
  .openapi('Importer', { example: fullExample });

export type ImporterInput = z.output<typeof ImporterInputSchema>;
export type Importer = z.output<typeof ImporterSchema>;

// ---- filling and mapping (plain functions, unit-tested) --------------------------------------

/** Fills every field the request left out: UUIDs, keys from names, "" / false / [] defaults, validation ids. */
export function fillImporter(input: ImporterInput, newUuid: () => string = randomUUID): Importer {
  const columns = withKeys(input.template.columns);
  const givenIds = columns.flatMap((c) => (c.validations ?? []).map((v) => v.id).filter((id): id is number => id !== undefined));
  let nextId = givenIds.length ? Math.max(...givenIds) + 1 : 1;
  if (nextId < 1) nextId = 1;
  return {
    id: input.id ?? newUuid(),
    name: input.name,
    template: {
      id: input.template.id ?? newUuid(),
      name: input.template.name ?? input.name,
      columns: columns.map((c) => ({
        id: c.id ?? newUuid(),
        key: c.key,
        name: c.name,
        description: c.description ?? '',
        required: c.required ?? false,
        suggested_mappings: c.suggested_mappings ?? [],
        validations: (c.validations ?? []).map((v) => ({
          id: v.id ?? nextId++,
          message: v.message ?? '',
          severity: v.severity ?? 'error',
          type: v.type,
          value: v.value === undefined ? '' : String(v.value),
        })),
      })),
    },
  };
}

/** Problems the schema cannot see: duplicate keys and ids. */
export function importerProblems(importer: Importer): string | null {
  const seen = (values: (string | number)[]) => values.find((v, i) => values.indexOf(v) !== i);
  const columns = importer.template.columns;
  const key = seen(columns.map((c) => c.key));
  if (key !== undefined) return `Duplicate column key '${key}'`;
  const id = seen(columns.map((c) => c.id.toLowerCase()));
  if (id !== undefined) return `Duplicate column id '${id}'`;
  const validationId = seen(columns.flatMap((c) => c.validations.map((v) => v.id)));
  if (validationId !== undefined) return `Duplicate validation id ${validationId}`;
  return null;
}

const TYPE_ALIASES: Record<string, ValidationType> = {
  required: 'required', not_empty: 'required', not_blank: 'required', notempty: 'required',
  regex: 'regex', regexp: 'regex', pattern: 'regex', regex_match: 'regex', matches: 'regex',
  enum: 'enum', one_of: 'enum', oneof: 'enum', in: 'enum', options: 'enum', allowed_values: 'enum', select: 'enum', list: 'enum',
  min: 'min', minimum: 'min', min_value: 'min', gte: 'min',
  max: 'max', maximum: 'max', max_value: 'max', lte: 'max',
  min_length: 'min_length', minlength: 'min_length', min_len: 'min_length',
  max_length: 'max_length', maxlength: 'max_length', max_len: 'max_length', length: 'max_length',
  unique: 'unique', unique_values: 'unique', distinct: 'unique', no_duplicates: 'unique',
};

const SEVERITY_ALIASES: Record<string, Severity> = { error: 'error', err: 'error', warn: 'warn', warning: 'warn', info: 'info', information: 'info' };

/** An importer validation as a template rule, or null when its type is not one Distill checks. */
export function ruleFor(v: { type: string; value: string; severity: string; message: string }): ValidationRule | null {
  const type = TYPE_ALIASES[v.type.trim().toLowerCase().replace(/[\s-]+/g, '_')];
  if (!type) return null;
  let value: string | undefined = v.value === '' ? undefined : v.value;
  if (type === 'enum' && value?.trim().startsWith('[')) {
    try {
      const list: unknown = JSON.parse(value);
      if (Array.isArray(list)) value = list.map(String).join(',');
    } catch {
      // a plain comma-separated list after all
    }
  }
  return {
    type,
    value,
    severity: SEVERITY_ALIASES[v.severity.trim().toLowerCase()] ?? 'error',
    ...(v.message ? { message: v.message } : {}),
  };
}

/** The extraction template for an importer: one table of string columns keyed like the importer. */
export function templateTableFor(importer: Importer): TemplateTable {
  const used = new Set<string>();
  const columns: TemplateColumn[] = importer.template.columns.map((c) => {
    const base = KEY_PATTERN.test(c.key) ? c.key : keyFromName(c.key);
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}_${n}`;
    used.add(key);
    return {
      key,
      name: c.name,
      data_type: 'string',
      required: c.required,
      ...(c.description ? { description: c.description } : {}),
      suggested_mappings: c.suggested_mappings,
      validations: c.validations.map(ruleFor).filter((r): r is ValidationRule => r !== null),
    };
  });
  return { key: keyFromName(importer.name), name: importer.name, columns };
}

// ---- routes -----------------------------------------------------------------------------------

/** Request errors in the spec's words: "The parameter 'name' is required". */
const importerHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (result.success) return undefined;
  const issue = (result.error as z.ZodError).issues[0];
  const path = issue?.path.join('.') ?? '';
  if (issue && issue.code === 'invalid_type' && /received undefined/.test(issue.message) && path) {
    return c.json({ error: `The parameter '${path}' is required` }, 400);
  }
  if (issue && issue.code === 'invalid_type' && !path) return c.json({ error: 'The request body must be a JSON object' }, 400);
  return c.json({ error: describeZodError(result.error as z.ZodError) }, 400);
};

const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: fullExample.id }) });

export function importerRoutes({ db }: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: importerHook });
  const { prisma } = db;

  app.openapi(
    createRoute({
      method: 'post', path: '/v1/importer', tags: ['Importer (v1)'], security, summary: 'Create an importer',
      description:
        'Stores the importer with every omitted field filled in (UUIDs for the importer, template and columns; keys from names; ' +
        'description ""; required false; suggested_mappings []; validations [] and integer validation ids). Its template becomes an ' +
        'extraction template: use `template.id` as `template_id` when uploading.',
      request: { body: { required: true, content: { 'application/json': { schema: ImporterInputSchema } } } },
      responses: {
        200: { description: 'The importer as stored', content: { 'application/json': { schema: ImporterSchema } } },
        ...errorResponses(400, 401, 409),
      },
    }),
    async (c) => {
      const importer = fillImporter(c.req.valid('json'));
      const problem = importerProblems(importer);
      if (problem) throw badRequest(problem);
      const workspaceId = c.get('workspaceId');
      const [importerTaken, templateTaken] = await Promise.all([
        prisma.importer.findUnique({ where: { id: importer.id }, select: { id: true } }),
        prisma.template.findUnique({ where: { id: importer.template.id }, select: { id: true } }),
      ]);
      if (importerTaken) throw conflict(`An importer with id '${importer.id}' already exists`);
      if (templateTaken) throw conflict(`A template with id '${importer.template.id}' already exists`);
      const table = templateTableFor(importer);
      try {
        await prisma.$transaction([
          prisma.template.create({
            data: {
              id: importer.template.id, workspaceId, name: importer.template.name, description: `Template of importer ${importer.name}`,
              fileTypes: [], fields: [], tables: [table] as object[],
            },
          }),
          prisma.importer.create({ data: { id: importer.id, workspaceId, name: importer.name, templateId: importer.template.id, body: importer as object } }),
        ]);
      } catch (error) {
        // Another request took one of the ids in the meantime.
        if ((error as { code?: string }).code === 'P2002') throw conflict('An importer or template with one of these ids already exists');
        throw error;
      }
      return c.json(importer, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v1/importer/{id}', tags: ['Importer (v1)'], security, summary: 'Get an importer',
      request: { params: IdParam },
      responses: { 200: { description: 'The importer as stored', content: { 'application/json': { schema: ImporterSchema } } }, ...errorResponses(401, 404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const found = UUID.test(id) ? await prisma.importer.findFirst({ where: { id, workspaceId: c.get('workspaceId') } }) : null;
      if (!found) throw notFound('Importer');
      return c.json(found.body as Importer, 200);
    },
  );

  return app;
}

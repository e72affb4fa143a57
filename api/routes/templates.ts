// Templates (not in the spec; extractions and flows need them): named fields and tables.
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { newId, unixSeconds } from '../../lib/ids.js';
import { kindOf } from '../../lib/file-types.js';
import {
  TemplateColumnInputSchema,
  TemplateFieldInputSchema,
  TemplateTableInputSchema,
  withKeys,
  type TemplateField,
  type TemplateTable,
} from '../../lib/template.js';
import type { AppDeps, AppEnv } from '../context.js';
import { badRequest, errorResponses, notFound } from '../errors.js';
import { jsonBody, validationHook } from '../validation.js';

const FileTypesSchema = z
  .array(z.string())
  .refine((list) => list.every((t) => kindOf(t) !== null), 'file_types entries must be kinds (pdf, excel, csv, tsv, image) or supported extensions')
  .default([]);

const TemplateInputSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    file_types: FileTypesSchema,
    fields: z.array(TemplateFieldInputSchema).default([]),
    tables: z.array(TemplateTableInputSchema).default([]),
  })
  .openapi('TemplateInput', {
    example: {
      name: 'Invoice',
      file_types: ['pdf', 'image'],
      fields: [{ key: 'invoice_number', name: 'Invoice number', data_type: 'string', required: true }],
      tables: [
        {
          key: 'line_items',
          name: 'Line items',
          columns: [
            { key: 'description', name: 'Description', data_type: 'string', required: true },
            { key: 'amount', name: 'Amount', data_type: 'currency', suggested_mappings: ['Total', 'Line total'] },
          ],
        },
      ],
    },
  });

const TemplatePatchSchema = z
  .object({
    name: z.string().min(1).optional(),
    description: z.string().nullable().optional(),
    file_types: z.array(z.string()).refine((list) => list.every((t) => kindOf(t) !== null), 'unknown file type').optional(),
    fields: z.array(TemplateFieldInputSchema).optional(),
    tables: z.array(TemplateTableInputSchema).optional(),
  })
  .openapi('TemplatePatch');

const TemplateSchema = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    file_types: z.array(z.string()),
    fields: z.array(TemplateFieldInputSchema.extend({ key: z.string() })),
    tables: z.array(TemplateTableInputSchema.extend({ key: z.string(), columns: z.array(TemplateColumnInputSchema.extend({ key: z.string() })) })),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi('Template');

type FieldInput = z.output<typeof TemplateFieldInputSchema>;
type TableInput = z.output<typeof TemplateTableInputSchema>;

function uniqueKeys(list: { key: string }[], what: string): void {
  const seen = new Set<string>();
  for (const { key } of list) {
    if (seen.has(key)) throw badRequest(`Duplicate ${what} key '${key}'`);
    seen.add(key);
  }
}

/** Fills default keys from names and checks uniqueness within each list. */
export function normalizeTemplateParts(fields: FieldInput[], tables: TableInput[]): { fields: TemplateField[]; tables: TemplateTable[] } {
  const keyedFields = withKeys(fields);
  uniqueKeys(keyedFields, 'field');
  const keyedTables = withKeys(tables).map((t) => {
    const columns = withKeys(t.columns);
    uniqueKeys(columns, `column in table '${t.key ?? t.name}'`);
    return { ...t, columns };
  });
  uniqueKeys(keyedTables, 'table');
  return { fields: keyedFields as TemplateField[], tables: keyedTables as TemplateTable[] };
}

export function templateBody(t: { id: string; workspaceId: string; name: string; description: string | null; fileTypes: string[]; fields: unknown; tables: unknown; createdAt: Date; updatedAt: Date }) {
  return {
    id: t.id,
    workspace_id: t.workspaceId,
    name: t.name,
    description: t.description,
    file_types: t.fileTypes,
    fields: t.fields as TemplateField[],
    tables: t.tables as TemplateTable[],
    created_at: unixSeconds(t.createdAt),
    updated_at: unixSeconds(t.updatedAt),
  };
}

const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'tpl_0123456789abcdefghjkmnpqrs' }) });
const security = [{ bearerAuth: [] }];

export function templateRoutes({ db }: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const { prisma } = db;

  async function find(workspaceId: string, id: string) {
    const template = await prisma.template.findFirst({ where: { id, workspaceId } });
    if (!template) throw notFound('Template');
    return template;
  }

  app.openapi(
    createRoute({
      method: 'post', path: '/v2/templates', tags: ['Templates'], security, summary: 'Create a template',
      request: { body: jsonBody(TemplateInputSchema) },
      responses: { 201: { description: 'Created', content: { 'application/json': { schema: TemplateSchema } } }, ...errorResponses(400, 401) },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const { fields, tables } = normalizeTemplateParts(input.fields, input.tables);
      const template = await prisma.template.create({
        data: {
          id: newId('tpl'), workspaceId: c.get('workspaceId'), name: input.name, description: input.description ?? null,
          fileTypes: input.file_types, fields: fields as object[], tables: tables as object[],
        },
      });
      return c.json(templateBody(template), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/templates', tags: ['Templates'], security, summary: 'List templates',
      responses: { 200: { description: 'All templates of the workspace, newest first', content: { 'application/json': { schema: z.object({ templates: z.array(TemplateSchema) }) } } }, ...errorResponses(401) },
    }),
    async (c) => {
      const list = await prisma.template.findMany({ where: { workspaceId: c.get('workspaceId') }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      return c.json({ templates: list.map(templateBody) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/templates/{id}', tags: ['Templates'], security, summary: 'Get a template',
      request: { params: IdParam },
      responses: { 200: { description: 'The template', content: { 'application/json': { schema: TemplateSchema } } }, ...errorResponses(401, 404) },
    }),
    async (c) => c.json(templateBody(await find(c.get('workspaceId'), c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch', path: '/v2/templates/{id}', tags: ['Templates'], security,
      summary: 'Update a template', description: 'Finished extractions keep the template as it was when they ran.',
      request: { params: IdParam, body: jsonBody(TemplatePatchSchema) },
      responses: { 200: { description: 'The updated template', content: { 'application/json': { schema: TemplateSchema } } }, ...errorResponses(400, 401, 404) },
    }),
    async (c) => {
      const current = await find(c.get('workspaceId'), c.req.valid('param').id);
      const patch = c.req.valid('json');
      const { fields, tables } = normalizeTemplateParts(
        patch.fields ?? (current.fields as FieldInput[]),
        patch.tables ?? (current.tables as TableInput[]),
      );
      const template = await prisma.template.update({
        where: { id: current.id },
        data: {
          name: patch.name ?? current.name,
          description: patch.description === undefined ? current.description : patch.description,
          fileTypes: patch.file_types ?? current.fileTypes,
          fields: fields as object[],
          tables: tables as object[],
        },
      });
      return c.json(templateBody(template), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete', path: '/v2/templates/{id}', tags: ['Templates'], security, summary: 'Delete a template',
      description: 'Extractions made with it keep their snapshot; flows naming it fail at that step.',
      request: { params: IdParam },
      responses: { 204: { description: 'Deleted' }, ...errorResponses(401, 404) },
    }),
    async (c) => {
      const template = await find(c.get('workspaceId'), c.req.valid('param').id);
      await prisma.template.delete({ where: { id: template.id } });
      return c.body(null, 204);
    },
  );

  return app;
}

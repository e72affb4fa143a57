// Response schemas shared by route groups (spec section 2), feeding the OpenAPI document.
import { z } from '@hono/zod-openapi';

export const IssueSchema = z
  .object({ validate: z.string(), severity: z.enum(['error', 'warn', 'info']), message: z.string() })
  .openapi('ValidationIssue', { example: { validate: 'data_type', severity: 'error', message: "Amount: 'abc' is not a valid currency" } });

export const RowSchema = z
  .object({
    index: z.number().int(),
    values: z.record(z.string(), z.string()),
    validations: z.record(z.string(), z.array(IssueSchema)),
  })
  .openapi('Row', { example: { index: 0, values: { description: 'Widget', amount: '12.50' }, validations: {} } });

export const PaginationSchema = z
  .object({ offset: z.number().int(), limit: z.number().int(), total: z.number().int(), next_offset: z.number().int().nullable(), filter: z.string() })
  .openapi('Pagination', { example: { offset: 0, limit: 100, total: 2, next_offset: null, filter: 'all' } });

export const StatusEntrySchema = z.object({ status: z.string(), time: z.number().int(), message: z.string() }).openapi('StatusEntry');

export const MetadataSchema = z.record(z.string(), z.unknown()).openapi('Metadata', { example: { customer: 'acme' } });

const SnapshotColumn = z.object({ key: z.string(), name: z.string(), data_type: z.string() });
export const TemplateSnapshotSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    fields: z.array(SnapshotColumn),
    tables: z.array(z.object({ key: z.string(), name: z.string(), columns: z.array(SnapshotColumn) })),
  })
  .openapi('TemplateSnapshot');

export const ExtractionSummarySchema = z
  .object({
    id: z.string(),
    status: z.enum(['processing', 'completed', 'failed']),
    template_id: z.string(),
    // z.union, not .nullable(): the generator drops null from a nullable $ref (zod-to-openapi)
    metadata: z.union([MetadataSchema, z.null()]),
    created_at: z.number().int(),
    updated_at: z.number().int(),
    file_info: z.object({ file_name: z.string(), file_type: z.string() }),
  })
  .openapi('ExtractionSummary');

export const ExtractionSchema = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    template_id: z.string(),
    template_name: z.string(),
    name: z.string().nullable(),
    guidance: z.string().nullable(),
    file_name: z.string(),
    file_size: z.number().int(),
    file_type: z.object({ key: z.string(), extension: z.string(), mime_type: z.string() }),
    status: z.enum(['processing', 'completed', 'failed']),
    status_history: z.array(StatusEntrySchema),
    error: z.string().optional(),
    progress: z.object({ pages_done: z.number().int(), pages_total: z.number().int() }).optional(),
    metadata: MetadataSchema,
    created_at: z.number().int(),
    updated_at: z.number().int(),
    data: z.object({
      fields: z.object({ values: z.record(z.string(), z.string()), validations: z.record(z.string(), z.array(IssueSchema)) }),
      tables: z.record(z.string(), z.object({ pagination: PaginationSchema, rows: z.array(RowSchema) })),
    }),
    stats: z.object({
      fields: z.object({ valid: z.number().int(), invalid: z.number().int(), total: z.number().int() }),
      tables: z.record(
        z.string(),
        z.object({
          rows: z.object({ valid: z.number().int(), invalid: z.number().int(), total: z.number().int() }),
          columns: z.object({ total: z.number().int() }),
        }),
      ),
    }),
    template: TemplateSnapshotSchema,
  })
  .openapi('Extraction');

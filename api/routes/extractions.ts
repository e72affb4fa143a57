// Extractions (spec 4.1–4.6): upload, list, get, rows, CSV download, original download.
import { Readable } from 'node:stream';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { stream as honoStream } from 'hono/streaming';
import { TypedSearchAttributes } from '@temporalio/common';
import { createExtractionRecord, parseMetadata, uploadObjectKey, workspaceTemplate } from '../../lib/extractions.js';
import { fileTypeOf, extensionOf, SUPPORTED_EXTENSIONS } from '../../lib/file-types.js';
import { newId } from '../../lib/ids.js';
import { InvalidFilterError, parseColumnList, parseRowFilter } from '../../lib/row-filter.js';
import { countRows, rowsPage, storedTableOf, streamRows, type StoredTable } from '../../lib/rows.js';
import { workflowIds } from '../../lib/temporal.js';
import type { TemplateSnapshot } from '../../lib/template.js';
import { KindAttr, StatusAttr, TemplateAttr, WorkspaceAttr } from '../../workflows/search-attributes.js';
import type { AppDeps, AppEnv } from '../context.js';
import { csvLine } from '../csv.js';
import { ApiError, badRequest, errorResponses, notFound } from '../errors.js';
import { extractionFull, extractionSummary, summariesPage } from '../extraction-body.js';
import { discardFiles, receiveMultipart } from '../multipart.js';
import { ExtractionSchema, ExtractionSummarySchema, MetadataSchema, PaginationSchema, RowSchema } from '../schemas.js';
import { intParam, validationHook } from '../validation.js';

const security = [{ bearerAuth: [] }];

const UploadResponseSchema = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    template_id: z.string(),
    status: z.literal('processing'),
    metadata: MetadataSchema,
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi('UploadResponse');

const UploadBodySchema = z.object({
  file: z.any().openapi({ type: 'string', format: 'binary', description: 'Exactly one file: .pdf, .xlsx, .xls, .csv, .tsv, .jpg, .png, .webp, .tiff; at most 1 GB' }),
  template_id: z.string().openapi({ description: "A template id, or 'auto' to let the service choose" }),
  name: z.string().optional(),
  guidance: z.string().optional().openapi({ description: 'Hints, one `key: value` per line: pages, date_format, decimal_separator, table_start.<table_key>, language (tesseract languages for scans, e.g. spa+eng), ocr (always: read every page of a PDF by OCR, its text layer ignored)' }),
  metadata: z.string().optional().openapi({ description: 'A JSON object serialised as a string' }),
});

const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'ext_0123456789abcdefghjkmnpqrs' }) });
const TableParams = IdParam.extend({ tableKey: z.string().openapi({ param: { name: 'tableKey', in: 'path' }, example: 'line_items' }) });
const RowFilterQuery = {
  filter: z.string().optional().openapi({ description: 'all, valid, invalid, error, warn, info; comma-separated (rows matching any)', example: 'invalid' }),
  column_validations: z.string().optional().openapi({ description: 'Comma-separated column keys: only rows with issues in any of them' }),
};
export function extractionRoutes({ db, storage, temporal, env }: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const { prisma, pool } = db;

  async function find(workspaceId: string, id: string) {
    if (!id.trim()) throw badRequest('No extraction ID provided');
    const extraction = await prisma.extraction.findFirst({ where: { id, workspaceId } });
    if (!extraction) throw notFound('Extraction');
    return extraction;
  }

  async function findTable(extraction: { id: string; template: unknown }, tableKey: string) {
    const template = extraction.template as TemplateSnapshot;
    const table = template.tables?.find((t) => t.key === tableKey);
    if (!table) throw notFound(`Table '${tableKey}'`);
    const record = await prisma.extractionTable.findUnique({ where: { extractionId_key: { extractionId: extraction.id, key: tableKey } } });
    const stored: StoredTable = record
      ? storedTableOf(record)
      : { id: -1n, key: tableKey, rowCount: 0, maskCounts: [0, 0, 0, 0, 0, 0, 0, 0], blockMaskCounts: [] };
    return { table, stored };
  }

  function rowQuery(filter: string | undefined, columns: string | undefined) {
    try {
      return { filter: parseRowFilter(filter), columns: parseColumnList(columns) };
    } catch (error) {
      if (error instanceof InvalidFilterError) throw badRequest(error.message);
      throw error;
    }
  }

  // Documented like every route, but handled without the body validator: the multipart body
  // must reach receiveMultipart as an unread stream.
  const uploadRoute = createRoute({
      method: 'post', path: '/v2/extractions/upload', tags: ['Extractions'], security, summary: 'Upload a file for extraction',
      description: 'Streams the file to storage, records the extraction and starts its workflow. Answers 202 with status processing.',
      request: { body: { required: true, content: { 'multipart/form-data': { schema: UploadBodySchema } } } },
      responses: { 202: { description: 'Accepted; poll GET /v2/extractions/{id}', content: { 'application/json': { schema: UploadResponseSchema } } }, ...errorResponses(400, 401, 404, 503) },
    });
  app.openAPIRegistry.registerPath(uploadRoute);
  app.post(uploadRoute.path, async (c) => {
      const workspaceId = c.get('workspaceId');
      const limit = env.MAX_UPLOAD_BYTES;
      const declared = Number(c.req.header('content-length') ?? 0);
      // A body far over the limit is refused before it is read.
      if (declared > limit + 1024 * 1024) throw badRequest(sizeMessage(declared, limit));
      const id = newId('ext');
      const objectKey = uploadObjectKey(workspaceId, id);
      let fileParts = 0;
      const received = await receiveMultipart(c, storage, (field, fileName) => {
        if (field !== 'file') return { objectKey: null, contentType: '', maxBytes: 0 };
        fileParts++;
        const type = fileTypeOf(fileName);
        return { objectKey: type && fileParts === 1 ? objectKey : null, contentType: type?.mimeType ?? '', maxBytes: limit };
      });
      try {
        const { fields } = received;
        const files = received.files.filter((f) => f.field === 'file');
        if (!fields.template_id?.trim()) throw badRequest("The parameter 'template_id' is required");
        const file = files[0];
        if (!file || file.size === 0) throw badRequest('No file was uploaded or the file is empty');
        if (files.length > 1) throw badRequest('Only one file may be uploaded per request');
        const type = fileTypeOf(file.fileName);
        if (!type) {
          throw badRequest(`File type '${extensionOf(file.fileName)}' is not supported. Supported types: ${SUPPORTED_EXTENSIONS.join(', ')}`);
        }
        if (file.size > limit) throw badRequest(sizeMessage(file.size, limit));
        const metadata = parseMetadata(fields.metadata);
        if (metadata instanceof Error) throw badRequest(metadata.message);
        const templateId = fields.template_id.trim();
        const template = templateId === 'auto' ? null : await workspaceTemplate(db, workspaceId, templateId);
        if (templateId !== 'auto' && !template) throw notFound('Template');
        if (templateId === 'auto' && (await prisma.template.count({ where: { workspaceId } })) === 0) {
          throw badRequest("The workspace has no templates for template_id 'auto' to choose from");
        }
        const extraction = await createExtractionRecord(db, {
          id, workspaceId, template, name: fields.name ?? null, guidance: fields.guidance ?? null, metadata,
          fileName: file.fileName, fileSize: file.size, fileType: type, objectKey,
        });
        try {
          await temporal.workflow.start('extractionWorkflow', {
            workflowId: workflowIds.extraction(id),
            taskQueue: env.TEMPORAL_TASK_QUEUE,
            args: [{ extractionId: id }],
            typedSearchAttributes: new TypedSearchAttributes([
              { key: WorkspaceAttr, value: workspaceId },
              { key: TemplateAttr, value: extraction.templateId },
              { key: StatusAttr, value: 'processing' },
              { key: KindAttr, value: 'extraction' },
            ]),
          });
        } catch (error) {
          await prisma.extraction.delete({ where: { id } }).catch(() => {});
          throw new ApiError(503, `The extraction could not be started: ${(error as Error).message}`);
        }
        const summary = extractionSummary(extraction);
        return c.json({ id, workspace_id: workspaceId, template_id: summary.template_id, status: 'processing' as const, metadata: metadata ?? {}, created_at: summary.created_at, updated_at: summary.updated_at }, 202);
      } catch (error) {
        await discardFiles(storage, received);
        throw error;
      }
  });

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/extractions', tags: ['Extractions'], security, summary: 'List extractions, newest first',
      request: { query: z.object({ template_id: z.string().optional(), limit: intParam('limit', 1, 1000, 100), offset: intParam('offset', 0, Number.MAX_SAFE_INTEGER, 0) }) },
      responses: {
        200: { description: 'A page of extraction summaries', content: { 'application/json': { schema: z.object({ extractions: z.array(ExtractionSummarySchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }) } } },
        ...errorResponses(400, 401),
      },
    }),
    async (c) => {
      const { template_id, limit, offset } = c.req.valid('query');
      const { summaries, total } = await summariesPage(db, { workspaceId: c.get('workspaceId'), templateId: template_id || undefined }, limit, offset);
      return c.json({ extractions: summaries, total, limit, offset }, 200);
    },
  );

  // Spec 7: a missing id answers 400, not 404.
  app.get('/v2/extractions/', () => {
    throw badRequest('No extraction ID provided');
  });
  app.get('/v2/extractions//download-original', () => {
    throw badRequest('No extraction ID provided');
  });

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/extractions/{id}', tags: ['Extractions'], security, summary: 'Get an extraction',
      request: { params: IdParam },
      responses: { 200: { description: 'The full extraction with the first 100 rows of each table', content: { 'application/json': { schema: ExtractionSchema } } }, ...errorResponses(400, 401, 404) },
    }),
    async (c) => c.json(await extractionFull(db, await find(c.get('workspaceId'), c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/extractions/{id}/tables/{tableKey}/rows', tags: ['Extractions'], security, summary: 'Get table rows',
      request: { params: TableParams, query: z.object({ offset: intParam('offset', 0, Number.MAX_SAFE_INTEGER, 0), limit: intParam('limit', 1, 1000, 100), ...RowFilterQuery }) },
      responses: { 200: { description: 'A page of rows', content: { 'application/json': { schema: z.object({ pagination: PaginationSchema, rows: z.array(RowSchema) }) } } }, ...errorResponses(400, 401, 404) },
    }),
    async (c) => {
      const { id, tableKey } = c.req.valid('param');
      const { offset, limit, filter, column_validations } = c.req.valid('query');
      const query = rowQuery(filter, column_validations);
      const extraction = await find(c.get('workspaceId'), id);
      const { table, stored } = await findTable(extraction, tableKey);
      const [total, rows] = await Promise.all([
        countRows(pool, stored, query),
        rowsPage(pool, stored, table.columns.map((col) => col.key), query, offset, limit),
      ]);
      const next = offset + rows.length < total && rows.length > 0 ? offset + rows.length : null;
      return c.json({ pagination: { offset, limit, total, next_offset: next, filter: query.filter.text }, rows }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/extractions/{id}/tables/{tableKey}/download', tags: ['Extractions'], security, summary: 'Download a table as CSV',
      request: { params: TableParams, query: z.object(RowFilterQuery) },
      responses: { 200: { description: 'CSV with a header of template column names', content: { 'text/csv': { schema: z.string() } } }, ...errorResponses(400, 401, 404) },
    }),
    async (c) => {
      const { id, tableKey } = c.req.valid('param');
      const { filter, column_validations } = c.req.valid('query');
      const query = rowQuery(filter, column_validations);
      const extraction = await find(c.get('workspaceId'), id);
      if (extraction.status !== 'completed') throw badRequest(`Cannot download extraction while in status ${extraction.status}`);
      const { table, stored } = await findTable(extraction, tableKey);
      const rowLimit = env.CSV_DOWNLOAD_ROW_LIMIT;
      if (stored.rowCount > rowLimit) {
        throw badRequest(`Table '${tableKey}' has ${stored.rowCount} rows, which is too large to download directly (limit ${rowLimit}); use the rows pagination endpoint GET /v2/extractions/${id}/tables/${tableKey}/rows instead`);
      }
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', `attachment; filename="${tableKey}.csv"`);
      return honoStream(c, async (out) => {
        await out.write(csvLine(table.columns.map((col) => col.name)));
        if (stored.id < 0n) return;
        for await (const batch of streamRows(pool, stored, query)) {
          await out.write(batch.map((values) => csvLine(table.columns.map((_, i) => values[i] ?? ''))).join(''));
        }
      }) as never;
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/extractions/{id}/download-original', tags: ['Extractions'], security, summary: 'Download the original file',
      request: { params: IdParam },
      responses: { 200: { description: 'The uploaded bytes', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } }, ...errorResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const extraction = await find(c.get('workspaceId'), c.req.valid('param').id);
      const object = await storage.stat(extraction.objectKey);
      if (!object) throw notFound('Original file');
      const body = Readable.toWeb(await storage.getStream(extraction.objectKey)) as unknown as ReadableStream;
      return new Response(body, {
        status: 200,
        headers: {
          'Content-Type': extraction.mimeType,
          'Content-Length': String(object.size),
          'Content-Disposition': contentDisposition(extraction.fileName),
        },
      }) as never;
    },
  );

  return app;
}

/** "File size 1100 MB exceeds limit of 1 GB" (binary units, as the limit is 1024³ bytes). */
export function sizeMessage(bytes: number, limit: number): string {
  const mb = bytes / 1024 ** 2;
  const size = mb >= 100 ? String(Math.round(mb)) : mb.toFixed(1);
  const limitText = limit % 1024 ** 3 === 0 ? `${limit / 1024 ** 3} GB` : `${Math.round((limit / 1024 ** 2) * 10) / 10} MB`;
  return `File size ${size} MB exceeds limit of ${limitText}`;
}

/** attachment with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

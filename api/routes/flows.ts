// Flows (spec 2.5, 4.7, 4.8, 4.11): definitions (create, read, update, delete — not in the spec,
// needed to have flows at all), running a flow with uploaded files, and the runs of one flow.
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { parseMetadata } from '../../lib/extractions.js';
import { inputFileRecords, RunStartError, startFlowRun, type FlowRecord } from '../../lib/flow-runs.js';
import {
  checkFlowDefinition,
  fileFieldOfPart,
  FileFieldSchema,
  FlowDefinitionError,
  FlowInputSchema,
  FlowPatchSchema,
  groupRunFiles,
  refuseFile,
  RunInputError,
  runInputObjectKey,
  templateIdsOf,
  type FileField,
  type FlowStep,
  type StepInput,
  type TemplateLookup,
} from '../../lib/flows.js';
import { fileTypeOf } from '../../lib/file-types.js';
import { newId, unixSeconds } from '../../lib/ids.js';
import { snapshotOf } from '../../lib/template-snapshot.js';
import type { AppDeps, AppEnv } from '../context.js';
import { ApiError, badRequest, conflict, errorResponses, notFound } from '../errors.js';
import { FlowRunSchema, RUN_BASE_COLUMNS, runBase } from '../flow-run-body.js';
import { discardFiles, receiveMultipart } from '../multipart.js';
import { jsonBody, validationHook } from '../validation.js';

const security = [{ bearerAuth: [] }];

const FlowStepSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string().optional(),
    type: z.enum(['extraction', 'reconciliation', 'review', 'verify', 'export']),
    order: z.number(),
    config: z.record(z.string(), z.unknown()),
  })
  .openapi('FlowStep');

export const FlowSchema = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    file_input_config: z.object({ file_fields: z.array(FileFieldSchema.extend({ name: z.string() })) }),
    steps: z.array(FlowStepSchema),
    active: z.boolean(),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi('Flow', {
    example: {
      id: 'flow_0123456789abcdefghjkmnpqrs', workspace_id: 'ws_0123456789abcdefghjkmnpqrs', name: 'Invoice vs. PO', description: null,
      file_input_config: { file_fields: [{ key: 'invoice', name: 'Invoice', required: true, file_types: ['pdf', 'csv'], multiple: false }, { key: 'po', name: 'Purchase order', required: true, file_types: ['csv', 'excel'], multiple: false }] },
      steps: [
        { id: 'inv', title: 'Extract invoice', type: 'extraction', order: 1, config: { template_id: 'tpl_a', file_key: 'invoice' } },
        { id: 'po', title: 'Extract PO', type: 'extraction', order: 2, config: { template_id: 'tpl_b', file_key: 'po' } },
        { id: 'match', title: 'Match lines', type: 'reconciliation', order: 3, config: { source_step_id_1: 'inv', source_step_id_2: 'po', table_key_1: 'lines', table_key_2: 'lines', match_on: [{ column_1: 'sku', column_2: 'sku' }], compare: [{ column_1: 'amount', column_2: 'amount' }], tolerance: 0.01 } },
      ],
      active: true, created_at: 1700000000, updated_at: 1700000000,
    },
  });

const RunBodySchema = z
  .object({
    '<file_key>': z.any().optional().openapi({ type: 'string', format: 'binary', description: "A file part per file field key; '<key>_1', '<key>_2', … for fields with multiple: true" }),
    name: z.string().optional(),
    metadata: z.string().optional().openapi({ description: 'A JSON object serialised as a string; returned with the run and in its webhooks' }),
    '<file_key>_metadata': z.string().optional().openapi({ description: "JSON object: metadata of that field's extraction(s)" }),
    '<file_key>_guidance': z.string().optional().openapi({ description: "Extraction hints for that field's file(s)" }),
  })
  .openapi('RunFlowBody');

const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'flow_0123456789abcdefghjkmnpqrs' }) });

type FlowRow = FlowRecord & { createdAt: Date };

export function flowBody(f: FlowRow): z.infer<typeof FlowSchema> {
  return {
    id: f.id,
    workspace_id: f.workspaceId,
    name: f.name,
    description: f.description,
    file_input_config: f.fileInputConfig as { file_fields: FileField[] },
    steps: f.steps as FlowStep[],
    active: f.active,
    created_at: unixSeconds(f.createdAt),
    updated_at: unixSeconds(f.updatedAt),
  };
}

export function flowRoutes({ db, storage, temporal, env }: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const { prisma } = db;

  async function find(workspaceId: string, id: string) {
    const flow = await prisma.flow.findFirst({ where: { id, workspaceId, deletedAt: null } });
    if (!flow) throw notFound('Flow');
    return flow;
  }

  /** Checks a whole definition against the workspace's templates; 400 naming the step and field. */
  async function checked(workspaceId: string, fileFields: z.input<typeof FileFieldSchema>[], steps: StepInput[]) {
    const ids = templateIdsOf(steps);
    const templates = await prisma.template.findMany({ where: { id: { in: ids }, workspaceId } });
    const lookup: TemplateLookup = new Map(templates.map((t) => [t.id, snapshotOf(t)]));
    try {
      return checkFlowDefinition(fileFields, steps, lookup);
    } catch (error) {
      if (error instanceof FlowDefinitionError) throw badRequest(error.message);
      if (error instanceof z.ZodError) throw error;
      throw error;
    }
  }

  app.openapi(
    createRoute({
      method: 'post', path: '/v2/flows', tags: ['Flows'], security, summary: 'Create a flow',
      description: 'Checked when saved: extraction steps name an existing template and a declared file field; reconciliation steps name earlier extraction steps and tables of their templates; verify and export steps name earlier steps; step ids and orders are unique; unknown step types are refused.',
      request: { body: jsonBody(FlowInputSchema) },
      responses: { 201: { description: 'Created', content: { 'application/json': { schema: FlowSchema } } }, ...errorResponses(400, 401) },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const workspaceId = c.get('workspaceId');
      const definition = await checked(workspaceId, input.file_input_config.file_fields, input.steps);
      const flow = await prisma.flow.create({
        data: {
          id: newId('flow'), workspaceId, name: input.name, description: input.description ?? null,
          fileInputConfig: definition.file_input_config as object, steps: definition.steps as object[], active: input.active,
        },
      });
      return c.json(flowBody(flow), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/flows', tags: ['Flows'], security, summary: 'List active flows',
      description: 'Only active flows, newest first, each with its full configuration. The answer is a bare JSON array (the form of the spec\'s sample response).',
      responses: { 200: { description: 'The active flows', content: { 'application/json': { schema: z.array(FlowSchema) } } }, ...errorResponses(401) },
    }),
    async (c) => {
      const flows = await prisma.flow.findMany({ where: { workspaceId: c.get('workspaceId'), active: true, deletedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      return c.json(flows.map(flowBody), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/flows/{id}', tags: ['Flows'], security, summary: 'Get a flow (active or not)',
      request: { params: IdParam },
      responses: { 200: { description: 'The flow', content: { 'application/json': { schema: FlowSchema } } }, ...errorResponses(401, 404) },
    }),
    async (c) => c.json(flowBody(await find(c.get('workspaceId'), c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch', path: '/v2/flows/{id}', tags: ['Flows'], security, summary: 'Update a flow',
      description: 'Any of name, description, file_input_config, steps, active. Changing file fields or steps checks the whole definition again. Runs keep the definition they ran with; a rerun of a failed run uses the flow as it now is.',
      request: { params: IdParam, body: jsonBody(FlowPatchSchema) },
      responses: { 200: { description: 'The updated flow', content: { 'application/json': { schema: FlowSchema } } }, ...errorResponses(400, 401, 404) },
    }),
    async (c) => {
      const workspaceId = c.get('workspaceId');
      const current = await find(workspaceId, c.req.valid('param').id);
      const patch = c.req.valid('json');
      const data: Record<string, unknown> = {};
      if (patch.name !== undefined) data.name = patch.name;
      if (patch.description !== undefined) data.description = patch.description;
      if (patch.active !== undefined) data.active = patch.active;
      if (patch.file_input_config || patch.steps) {
        const fileFields = patch.file_input_config?.file_fields ?? (current.fileInputConfig as unknown as { file_fields: FileField[] }).file_fields;
        const steps = patch.steps ?? (current.steps as StepInput[]);
        const definition = await checked(workspaceId, fileFields, steps);
        data.fileInputConfig = definition.file_input_config as object;
        data.steps = definition.steps as object[];
      }
      const flow = await prisma.flow.update({ where: { id: current.id }, data });
      return c.json(flowBody(flow), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete', path: '/v2/flows/{id}', tags: ['Flows'], security, summary: 'Delete a flow',
      description: 'The flow can no longer be read, listed or run. Its runs stay readable (they keep the definition they ran with); runs in progress finish.',
      request: { params: IdParam },
      responses: { 204: { description: 'Deleted' }, ...errorResponses(401, 404) },
    }),
    async (c) => {
      const flow = await find(c.get('workspaceId'), c.req.valid('param').id);
      await prisma.flow.update({ where: { id: flow.id }, data: { deletedAt: new Date(), active: false } });
      return c.body(null, 204);
    },
  );

  // Documented like every route, but handled without the body validator: the multipart body
  // must reach receiveMultipart as an unread stream.
  const runRoute = createRoute({
    method: 'post', path: '/v2/flows/{id}/run', tags: ['Flows'], security, summary: 'Run a flow',
    description:
      'Multipart: one file part per file field key (`<key>_1`, `<key>_2`, … for fields with multiple: true), optional `<key>_metadata`, `<key>_guidance`, `metadata` and `name`. ' +
      'A missing required file, an unknown file part, a file whose kind is not in the field\'s file_types, or one over max_file_size answers 400 naming the part or field. ' +
      'An unknown flow answers 404; an inactive flow 409. Answers 202 with the run (status processing, trigger_method api, end_time null, duration 0); poll GET /v2/flows/runs/{id}.',
    request: { params: IdParam, body: { required: true, content: { 'multipart/form-data': { schema: RunBodySchema } } } },
    responses: { 202: { description: 'Accepted', content: { 'application/json': { schema: FlowRunSchema } } }, ...errorResponses(400, 401, 404, 409, 503) },
  });
  app.openAPIRegistry.registerPath(runRoute);
  app.post('/v2/flows/:id/run', async (c) => {
    const workspaceId = c.get('workspaceId');
    const flow = await find(workspaceId, c.req.param('id'));
    if (!flow.active) throw conflict(`Flow '${flow.name}' is inactive; activate it (PATCH /v2/flows/${flow.id} with {"active": true}) to run it`);
    const fields = (flow.fileInputConfig as unknown as { file_fields: FileField[] }).file_fields;
    const limit = env.MAX_UPLOAD_BYTES;
    const runId = newId('run');
    const received = await receiveMultipart(c, storage, (part, fileName, index) => {
      const owner = fileFieldOfPart(fields, part);
      // Parts that will be refused are counted (for the message) but not stored.
      if (!owner || refuseFile(owner.field, part, fileName, null, limit)) return { objectKey: null, contentType: '', maxBytes: 0 };
      return {
        objectKey: runInputObjectKey(workspaceId, runId, index + 1, part),
        contentType: fileTypeOf(fileName)!.mimeType,
        maxBytes: Math.min(owner.field.max_file_size ?? Infinity, limit),
      };
    });
    try {
      let inputFiles;
      try {
        const grouped = groupRunFiles(fields, received.files.map((f) => ({ part: f.field, fileName: f.fileName, size: f.size, objectKey: f.objectKey })), limit);
        inputFiles = inputFileRecords(fields, grouped, received.fields);
      } catch (error) {
        if (error instanceof RunInputError) throw badRequest(error.message);
        throw error;
      }
      const { fields: text } = received;
      const metadata = parseMetadata(text.metadata);
      if (metadata instanceof Error) throw badRequest(metadata.message);
      const run = await startFlowRun(
        { db, temporal, taskQueue: env.TEMPORAL_TASK_QUEUE },
        { runId, flow, inputFiles, metadata, name: text.name?.trim() || null, triggerMethod: 'api' },
      );
      return c.json(runBase(run), 202);
    } catch (error) {
      await discardFiles(storage, received);
      if (error instanceof RunStartError) throw new ApiError(503, error.message);
      throw error;
    }
  });

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/flows/{id}/runs', tags: ['Flows'], security, summary: 'List the runs of one flow',
      description: 'All runs of the flow, newest first, without pagination. The answer is a bare JSON array of flow runs (the form of the spec\'s sample response).',
      request: { params: IdParam },
      responses: { 200: { description: 'The runs', content: { 'application/json': { schema: z.array(FlowRunSchema) } } }, ...errorResponses(401, 404) },
    }),
    async (c) => {
      const workspaceId = c.get('workspaceId');
      const flow = await find(workspaceId, c.req.valid('param').id);
      const runs = await prisma.flowRun.findMany({ where: { workspaceId, flowId: flow.id }, select: RUN_BASE_COLUMNS, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      return c.json(runs.map(runBase), 200);
    },
  );

  return app;
}


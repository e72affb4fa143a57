// Flow runs (spec 2.6, 3.2, 4.9, 4.10): listing, reading, the review decision (a Temporal
// Update to the run's workflow), reruns of failed runs, and the files export steps wrote.
// Registered before the flow routes so `/v2/flows/runs` is not read as a flow id.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { exportObjectKey, rerunFlowRun, RunStartError, RunStateError, RUN_STATUSES } from '../../lib/flow-runs.js';
import { workflowIds } from '../../lib/temporal.js';
import { reviewUpdate, type ReviewInput } from '../../workflows/flow-run.js';
import type { AppDeps, AppEnv } from '../context.js';
import { ApiError, conflict, errorResponses, notFound } from '../errors.js';
import { FlowRunDetailSchema, FlowRunSchema, RUN_BASE_COLUMNS, runBase, runDetail } from '../flow-run-body.js';
import { intParam, jsonBody, validationHook } from '../validation.js';
import { contentDisposition } from './extractions.js';

const security = [{ bearerAuth: [] }];

const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'run_0123456789abcdefghjkmnpqrs' }) });
const FileParams = IdParam.extend({ file_id: z.string().openapi({ param: { name: 'file_id', in: 'path' }, example: 'file_0123456789abcdefghjkmnpq' }) });

const ListQuery = z.object({
  flow_id: z.string().optional(),
  status: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || (RUN_STATUSES as string[]).includes(v), { message: `must be one of ${RUN_STATUSES.join(', ')}` })
    .openapi({ enum: RUN_STATUSES }),
  limit: intParam('limit', 1, 1000, 100),
  offset: intParam('offset', 0, Number.MAX_SAFE_INTEGER, 0),
});

const RunListSchema = z
  .object({
    flow_runs: z.array(FlowRunSchema),
    pagination: z.object({
      total: z.number().int(),
      limit: z.number().int(),
      offset: z.number().int(),
      next_offset: z.number().int().openapi({ description: '0 when there are no more pages' }),
      filter: z.literal('all'),
    }),
  })
  .openapi('FlowRunList');

const ReviewBodySchema = z
  .object({
    decision: z.enum(['approve', 'reject']),
    comment: z.string().max(10_000).optional(),
  })
  .openapi('ReviewDecision', { example: { decision: 'approve', comment: 'Totals checked against the PO' } });

/** How long the API waits for the run's workflow to take a review decision. */
const UPDATE_DEADLINE_MS = 30_000;

export function flowRunRoutes({ db, storage, temporal, env }: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const { prisma } = db;

  async function find(workspaceId: string, id: string) {
    const run = await prisma.flowRun.findFirst({ where: { id, workspaceId } });
    if (!run) throw notFound('Flow run');
    return run;
  }

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/flows/runs', tags: ['Flow runs'], security, summary: 'List flow runs, newest first',
      request: { query: ListQuery },
      responses: { 200: { description: 'A page of runs (base form)', content: { 'application/json': { schema: RunListSchema } } }, ...errorResponses(400, 401) },
    }),
    async (c) => {
      const { flow_id, status, limit, offset } = c.req.valid('query');
      const where = { workspaceId: c.get('workspaceId'), ...(flow_id ? { flowId: flow_id } : {}), ...(status ? { status } : {}) };
      const [runs, total] = await Promise.all([
        prisma.flowRun.findMany({ where, select: RUN_BASE_COLUMNS, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit }),
        prisma.flowRun.count({ where }),
      ]);
      const next = offset + runs.length < total && runs.length > 0 ? offset + runs.length : 0;
      return c.json({ flow_runs: runs.map(runBase), pagination: { total, limit, offset, next_offset: next, filter: 'all' as const } }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/flows/runs/{id}', tags: ['Flow runs'], security, summary: 'Get a flow run (detail form)',
      description: 'The run with its flow as it was at execution time, every step execution of every attempt (status, timing, outputs or errors), the attempts, and the input files. Poll until status is completed or failed (or review).',
      request: { params: IdParam },
      responses: { 200: { description: 'The run', content: { 'application/json': { schema: FlowRunDetailSchema } } }, ...errorResponses(401, 404) },
    }),
    async (c) => c.json(runDetail(await find(c.get('workspaceId'), c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'post', path: '/v2/flows/runs/{id}/review', tags: ['Flow runs'], security, summary: 'Approve or reject a run waiting for review',
      description: 'Reaches the run\'s workflow as a Temporal Update. 409 when the run is not waiting for review. approve continues the run; reject fails it with the comment in `error`. Answers 200 with the run once the workflow has recorded the decision.',
      request: { params: IdParam, body: jsonBody(ReviewBodySchema) },
      responses: { 200: { description: 'Decision taken', content: { 'application/json': { schema: FlowRunDetailSchema } } }, ...errorResponses(400, 401, 404, 409, 503) },
    }),
    async (c) => {
      const workspaceId = c.get('workspaceId');
      const run = await find(workspaceId, c.req.valid('param').id);
      if (run.status !== 'review') throw conflict(`Flow run is ${run.status}; it is not waiting for review`);
      const { decision, comment } = c.req.valid('json');
      const handle = temporal.workflow.getHandle(workflowIds.flowRun(run.id));
      const review: ReviewInput = { decision, comment: comment ?? null, reviewer: { workspace_id: workspaceId, api_key_id: c.get('apiKeyId') ?? null } };
      const options: { updateId: string; args: [ReviewInput] } = { updateId: randomUUID(), args: [review] };
      const deadline = Date.now() + UPDATE_DEADLINE_MS;
      try {
        for (;;) {
          try {
            await temporal.withDeadline(deadline, () => handle.executeUpdate(reviewUpdate, options));
            break;
          } catch (error) {
            // One call can time out before the update is taken (a restarted worker has not picked up
            // the run yet): ask again with the same update id, which Temporal answers only once.
            if (!(error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) || Date.now() > deadline - 1000) throw error;
          }
        }
      } catch (error) {
        if (error instanceof WorkflowUpdateFailedError) throw conflict(error.cause?.message ?? error.message);
        if (error instanceof WorkflowNotFoundError) throw conflict('Flow run is not waiting for review');
        throw new ApiError(503, `The run's workflow did not answer within ${UPDATE_DEADLINE_MS / 1000} s (are workers running?): ${(error as Error).message}. Check the run's status; if it is still in review, send the decision again`);
      }
      return c.json(runDetail(await find(workspaceId, run.id)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post', path: '/v2/flows/runs/{id}/rerun', tags: ['Flow runs'], security, summary: 'Rerun a failed run',
      description: 'Starts the next attempt of the same run (current_attempt + 1, a new flow_attempts entry) with the flow\'s current definition. Steps that succeeded with an unchanged definition are not executed again; the failed step and those after it are. 409 unless the run failed.',
      request: { params: IdParam },
      responses: { 202: { description: 'The next attempt started', content: { 'application/json': { schema: FlowRunDetailSchema } } }, ...errorResponses(401, 404, 409, 503) },
    }),
    async (c) => {
      const run = await find(c.get('workspaceId'), c.req.valid('param').id);
      try {
        return c.json(runDetail(await rerunFlowRun({ db, temporal, taskQueue: env.TEMPORAL_TASK_QUEUE }, run)), 202);
      } catch (error) {
        if (error instanceof RunStateError) throw conflict(error.message);
        if (error instanceof RunStartError) throw new ApiError(503, error.message);
        throw error;
      }
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v2/flows/runs/{id}/files/{file_id}', tags: ['Flow runs'], security, summary: 'Download a file an export step wrote',
      request: { params: FileParams },
      responses: { 200: { description: 'The XLSX workbook', content: { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: z.string().openapi({ format: 'binary' }) } } }, ...errorResponses(401, 404) },
    }),
    async (c) => {
      const { id, file_id } = c.req.valid('param');
      const run = await find(c.get('workspaceId'), id);
      const file = Object.values((run.driveFiles as Record<string, { file_id: string; mime_type: string; file_name: string }>) ?? {}).find((f) => f.file_id === file_id);
      if (!file) throw notFound('File');
      const key = exportObjectKey(run.workspaceId, run.id, file.file_id);
      const object = await storage.stat(key);
      if (!object) throw notFound('File');
      const body = Readable.toWeb(await storage.getStream(key)) as unknown as ReadableStream;
      return new Response(body, {
        status: 200,
        headers: { 'Content-Type': file.mime_type, 'Content-Length': String(object.size), 'Content-Disposition': contentDisposition(file.file_name) },
      }) as never;
    },
  );

  return app;
}

// `flow run FLOW_ID --file KEY=PATH ... [--metadata JSON] [--name N] [--file-metadata KEY=JSON]
// [--guidance KEY=TEXT]`: runs a flow from the command line (trigger_method manual) with the
// same checks and the same start as POST /v2/flows/{id}/run, and prints the run's base form.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { runBase } from '../api/flow-run-body.js';
import type { Database } from './db.js';
import { env } from './env.js';
import { parseMetadata } from './extractions.js';
import { fileTypeOf } from './file-types.js';
import { inputFileRecords, startFlowRun } from './flow-runs.js';
import { groupRunFiles, runInputObjectKey, type FileField, type ReceivedRunFile } from './flows.js';
import { newId } from './ids.js';
import { createStorage } from './storage.js';
import { createTemporalClient } from './temporal.js';

function pairs(list: string[] | undefined, option: string): [string, string][] {
  return (list ?? []).map((item) => {
    const at = item.indexOf('=');
    if (at <= 0) throw new Error(`--${option} takes KEY=VALUE, got '${item}'`);
    return [item.slice(0, at), item.slice(at + 1)];
  });
}

export async function flowRunCommand(db: Database, args: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      file: { type: 'string', multiple: true },
      metadata: { type: 'string' },
      name: { type: 'string' },
      'file-metadata': { type: 'string', multiple: true },
      guidance: { type: 'string', multiple: true },
    },
  });
  const [flowId] = positionals;
  if (!flowId) throw new Error('flow run needs FLOW_ID [--file KEY=PATH ...] [--metadata JSON] [--name NAME]');
  const e = env();
  const flow = await db.prisma.flow.findFirst({ where: { id: flowId, deletedAt: null } });
  if (!flow) throw new Error(`flow ${flowId} does not exist`);
  if (!flow.active) throw new Error(`flow ${flowId} is inactive; activate it before running it`);
  const fields = (flow.fileInputConfig as unknown as { file_fields: FileField[] }).file_fields;

  const runId = newId('run');
  const counts = new Map<string, number>();
  const files: (ReceivedRunFile & { path: string })[] = [];
  for (const [key, path] of pairs(values.file, 'file')) {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw new Error(`${path} is not a readable file`);
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    const field = fields.find((f) => f.key === key);
    const part = field?.multiple ? `${key}_${n}` : key;
    files.push({ part, fileName: basename(path), size: info.size, objectKey: runInputObjectKey(flow.workspaceId, runId, files.length + 1, part), path });
  }
  // Every check the API makes, before anything is uploaded.
  const grouped = groupRunFiles(fields, files, e.MAX_UPLOAD_BYTES);
  const text: Record<string, string> = {};
  for (const [key, json] of pairs(values['file-metadata'], 'file-metadata')) text[`${key}_metadata`] = json;
  for (const [key, hint] of pairs(values.guidance, 'guidance')) text[`${key}_guidance`] = hint;
  const inputFiles = inputFileRecords(fields, grouped, text);
  const metadata = parseMetadata(values.metadata);
  if (metadata instanceof Error) throw new Error(metadata.message.replace("parameter 'metadata'", '--metadata'));

  const storage = createStorage({ endpoint: e.S3_ENDPOINT, region: e.S3_REGION, bucket: e.S3_BUCKET, accessKey: e.S3_ACCESS_KEY, secretKey: e.S3_SECRET_KEY });
  const { client, connection } = await createTemporalClient(e);
  try {
    for (const file of files) await storage.putStream(file.objectKey!, createReadStream(file.path), fileTypeOf(file.fileName)!.mimeType);
    const run = await startFlowRun(
      { db, temporal: client, taskQueue: e.TEMPORAL_TASK_QUEUE },
      { runId, flow, inputFiles, metadata, name: values.name?.trim() || null, triggerMethod: 'manual' },
    );
    return runBase(run);
  } catch (error) {
    await Promise.allSettled(files.map((f) => storage.remove(f.objectKey!)));
    throw error;
  } finally {
    await connection.close();
  }
}

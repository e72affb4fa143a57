// The stack the test suite and the benchmarks run against: its own Temporal dev server (in
// memory), its own MinIO (temp dir), its own database — nothing shared with `npm start`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { bundleWorkflowCode } from '@temporalio/worker';
import { ensureDatabaseReady, ensureS3, ensureTemporal, stopChild, type Service } from './stack.js';
import type { Env } from './env.js';

export const TEST_ENV: Record<string, string> = {
  TEMPORAL_ADDRESS: '127.0.0.1:7243',
  TEMPORAL_NAMESPACE: 'distill',
  TEMPORAL_TASK_QUEUE: 'distill-test',
  S3_ENDPOINT: 'http://127.0.0.1:9190',
  S3_BUCKET: 'distill-test',
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/distill_test',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  LOG_LEVEL: 'warn',
};

export interface TestStack {
  env: Record<string, string>;
  stop(): Promise<void>;
}

async function recreateDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  target.pathname = '/postgres';
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

export async function startTestStack(log: (line: string) => void, overrides: Record<string, string> = {}): Promise<TestStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'distill-test-'));
  const vars = { ...TEST_ENV, DISTILL_DATA_DIR: dataDir, ...overrides };
  Object.assign(process.env, vars);
  const { env } = await import('./env.js');
  const e: Env = env();
  await recreateDatabase(e.DATABASE_URL);
  await ensureDatabaseReady(e);
  const services: Service[] = [];
  services.push(await ensureTemporal(e, { ephemeral: true, log }));
  services.push(await ensureS3(e, { ephemeral: true, dataDir: join(dataDir, 's3'), log }));
  // Bundle the workflows once; every worker the tests start loads this file.
  const { code } = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('../workflows/index.ts', import.meta.url)), logger: quietLogger });
  const bundlePath = join(dataDir, 'workflow-bundle.js');
  writeFileSync(bundlePath, code);
  return {
    env: { ...vars, WORKFLOW_BUNDLE_PATH: bundlePath },
    async stop() {
      for (const service of services.reverse()) await stopChild(service.child);
    },
  };
}

const noop = () => {};
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: (m: string) => console.error(m) };

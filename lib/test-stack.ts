// The stack the test suite and the benchmarks run against: its own Temporal dev server (in
// memory), its own MinIO (temp dir), its own database — nothing shared with `npm start`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { bundleWorkflowCode } from '@temporalio/worker';
import { ensureDatabaseReady, ensureS3, ensureTemporal, stopChild, type Service } from './stack.js';
import type { Env } from './env.js';

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Free ports and a database of its own, so several runs (developers, CI, benches) never collide. */
async function testEnv(): Promise<Record<string, string>> {
  const base = process.env.DATABASE_URL_TEST_BASE ?? 'postgresql://postgres@127.0.0.1:5432/';
  return {
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
    TEMPORAL_UI_PORT: String(await freePort()),
    TEMPORAL_NAMESPACE: 'distill',
    TEMPORAL_TASK_QUEUE: 'distill-test',
    S3_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
    S3_CONSOLE_PORT: String(await freePort()),
    S3_BUCKET: 'distill-test',
    DATABASE_URL: `${base}distill_test_${process.pid}`,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'warn',
  };
}

export interface TestStack {
  env: Record<string, string>;
  stop(): Promise<void>;
}

async function recreateDatabase(url: string, create = true): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  target.pathname = '/postgres';
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    if (create) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

export async function startTestStack(log: (line: string) => void, overrides: Record<string, string> = {}): Promise<TestStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'distill-test-'));
  const vars: Record<string, string> = { ...(await testEnv()), DISTILL_DATA_DIR: dataDir, ...overrides };
  Object.assign(process.env, vars);
  const { env } = await import('./env.js');
  const e: Env = env();
  await recreateDatabase(e.DATABASE_URL);
  await ensureDatabaseReady(e);
  const services: Service[] = [];
  // MinIO first: the Temporal dev server binds random ports of its own for its internal services,
  // and one of them once took the S3 port picked above before MinIO had bound it.
  services.push(await ensureS3(e, { ephemeral: true, dataDir: join(dataDir, 's3'), log, consolePort: Number(vars.S3_CONSOLE_PORT) }));
  services.push(await ensureTemporal(e, { ephemeral: true, log, uiPort: Number(vars.TEMPORAL_UI_PORT) }));
  // A run that dies without calling stop() must not leave servers behind.
  const killLeftovers = () => {
    for (const service of services) service.child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', killLeftovers);
  // Bundle the workflows once; every worker the tests start loads this file.
  const { code } = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('../workflows/index.ts', import.meta.url)), logger: quietLogger });
  const bundlePath = join(dataDir, 'workflow-bundle.js');
  writeFileSync(bundlePath, code);
  return {
    env: { ...vars, WORKFLOW_BUNDLE_PATH: bundlePath },
    async stop() {
      process.off('exit', killLeftovers);
      for (const service of services.reverse()) await stopChild(service.child);
      await recreateDatabase(e.DATABASE_URL, false).catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const noop = () => {};
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: (m: string) => console.error(m) };

// Starts the parts of the embedded stack that are not already running: the Temporal dev server
// (with its Web UI) and a MinIO server, then prepares Postgres and the bucket. Used by
// `npm start`, the test runner and the benchmarks.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { temporalDevConfig } from './dev-config.js';
import { migrate } from './migrate.js';
import { createStorage } from './storage.js';
import type { Env } from './env.js';

/**
 * Node flags for worker processes. A 500k-row import allocates millions of short-lived strings;
 * a 64 MB young generation (the default is 16) cuts the scavenger's share of its CPU by half.
 */
export const WORKER_NODE_FLAGS = ['--max-semi-space-size=64'];
/**
 * Node flags and environment for API processes, whose memory is all request-sized: a 4 MB young
 * generation and two malloc arenas (instead of one per thread) keep the RSS of an API that has
 * been busy ~50 MB lower while a 1 GB upload streams through it.
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=4'];
export const API_PROCESS_ENV = { MALLOC_ARENA_MAX: '2' };

export interface Service {
  name: string;
  url: string;
  child?: ChildProcess;
}

function portOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, child: ChildProcess | undefined, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode} while starting`);
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s`);
}

function hostPort(address: string): { host: string; port: number } {
  const [host, port] = address.replace(/^[a-z]+:\/\//, '').split(':');
  return { host: host ?? '127.0.0.1', port: Number(port ?? 7233) };
}

function findBinary(name: string, override: string | undefined, toolsDir: string): string {
  if (override) return override;
  const cached = join(toolsDir, 'bin', name);
  if (existsSync(cached)) return cached;
  return name; // on PATH; scripts/setup.sh has checked that one of the three exists
}

function logFile(dataDir: string, name: string): number {
  mkdirSync(join(dataDir, 'logs'), { recursive: true });
  return openSync(join(dataDir, 'logs', `${name}.log`), 'a');
}

export interface StackOptions {
  /** Keep Temporal history in memory instead of the data directory's file (tests). */
  ephemeral?: boolean;
  uiPort?: number;
  consolePort?: number;
  log?: (line: string) => void;
}

export async function ensureTemporal(e: Env, options: StackOptions = {}): Promise<Service> {
  const dev = temporalDevConfig();
  const { host, port } = hostPort(e.TEMPORAL_ADDRESS);
  const uiPort = options.uiPort ?? (port === hostPort(dev.address).port ? dev.ui_port : port + 1000);
  let child: ChildProcess | undefined;
  if (!(await portOpen(host, port))) {
    const binary = findBinary('temporal', process.env.TEMPORAL_BIN, e.DISTILL_TOOLS_DIR);
    mkdirSync(e.DISTILL_DATA_DIR, { recursive: true });
    const args = ['server', 'start-dev', '--ip', host, '--port', String(port), '--ui-port', String(uiPort),
      '--namespace', e.TEMPORAL_NAMESPACE, '--log-level', 'warn'];
    if (!options.ephemeral) args.push('--db-filename', join(e.DISTILL_DATA_DIR, dev.db_filename));
    for (const [name, type] of Object.entries(dev.search_attributes)) args.push('--search-attribute', `${name}=${type}`);
    for (const [key, value] of Object.entries(dev.dynamic_config)) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
    const out = logFile(e.DISTILL_DATA_DIR, options.ephemeral ? 'temporal-test' : 'temporal');
    options.log?.(`starting Temporal dev server on ${host}:${port}`);
    child = spawn(binary, args, { stdio: ['ignore', out, out] });
    await waitFor('Temporal', async () => (await portOpen(host, port)) && (await temporalHealthy(e)), child);
  }
  await registerNamespaceSettings(e);
  return { name: 'Temporal UI', url: `http://${host}:${uiPort}`, child };
}

async function temporalHealthy(e: Env): Promise<boolean> {
  try {
    const connection = await Connection.connect({ address: e.TEMPORAL_ADDRESS, connectTimeout: 1000 });
    try {
      await connection.workflowService.describeNamespace({ namespace: e.TEMPORAL_NAMESPACE });
      return true;
    } finally {
      await connection.close();
    }
  } catch {
    return false;
  }
}

/** Search attributes and retention from temporal-dev.yaml; idempotent, also for an existing server. */
async function registerNamespaceSettings(e: Env): Promise<void> {
  const dev = temporalDevConfig();
  const connection = await Connection.connect({ address: e.TEMPORAL_ADDRESS, tls: e.TEMPORAL_TLS ? {} : undefined, apiKey: e.TEMPORAL_API_KEY });
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace: e.TEMPORAL_NAMESPACE });
    const missing = Object.entries(dev.search_attributes).filter(([name]) => !(name in (existing.customAttributes ?? {})));
    if (missing.length) {
      const typeIds: Record<string, number> = { Text: 1, Keyword: 2, Int: 3, Double: 4, Bool: 5, Datetime: 6, KeywordList: 7 };
      await connection.operatorService.addSearchAttributes({
        namespace: e.TEMPORAL_NAMESPACE,
        searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, typeIds[type]!])),
      });
    }
    const hours = Number(/^(\d+)h$/.exec(dev.retention)?.[1] ?? 168);
    await connection.workflowService
      .updateNamespace({ namespace: e.TEMPORAL_NAMESPACE, config: { workflowExecutionRetentionTtl: msToTs(hours * 3600 * 1000) } })
      .catch(() => {}); // Temporal Cloud manages retention itself
  } finally {
    await connection.close();
  }
}

export async function ensureS3(e: Env, options: StackOptions & { dataDir?: string } = {}): Promise<Service> {
  const url = new URL(e.S3_ENDPOINT);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let child: ChildProcess | undefined;
  if (!(await portOpen(url.hostname, port))) {
    const binary = findBinary('minio', process.env.MINIO_BIN, e.DISTILL_TOOLS_DIR);
    const dir = options.dataDir ?? join(e.DISTILL_DATA_DIR, 's3');
    mkdirSync(dir, { recursive: true });
    const out = logFile(e.DISTILL_DATA_DIR, options.ephemeral ? 'minio-test' : 'minio');
    options.log?.(`starting MinIO on ${url.host}`);
    child = spawn(binary, ['server', dir, '--address', `${url.hostname}:${port}`, '--console-address', `${url.hostname}:${options.consolePort ?? port + 1}`, '--quiet'], {
      stdio: ['ignore', out, out],
      env: { ...process.env, MINIO_ROOT_USER: e.S3_ACCESS_KEY, MINIO_ROOT_PASSWORD: e.S3_SECRET_KEY, MINIO_BROWSER: 'off', MINIO_UPDATE: 'off' },
    });
    await waitFor('MinIO', async () => {
      try {
        return (await fetch(new URL('/minio/health/ready', url))).ok;
      } catch {
        return false;
      }
    }, child);
  }
  await createStorage({ endpoint: e.S3_ENDPOINT, region: e.S3_REGION, bucket: e.S3_BUCKET, accessKey: e.S3_ACCESS_KEY, secretKey: e.S3_SECRET_KEY }).ensureBucket();
  return { name: 'S3', url: e.S3_ENDPOINT, child };
}

export async function ensureDatabaseReady(e: Env, log?: (line: string) => void): Promise<void> {
  await migrate(e.DATABASE_URL, log);
}

export async function stopChild(child: ChildProcess | undefined, timeoutMs = 10_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

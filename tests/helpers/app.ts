// Starts the real API and worker processes against the test stack (see scripts/test.ts) and
// gives tests an HTTP client. No mocks: Postgres, Temporal and S3 are the real servers.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { API_NODE_FLAGS, API_PROCESS_ENV, WORKER_NODE_FLAGS } from '../../lib/stack.js';
import { freePort } from '../../lib/test-stack.js';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);


function startProcess(script: string, extraEnv: Record<string, string>): ChildProcess {
  // node --import tsx, not the tsx launcher: one process, so a SIGKILL really kills the worker.
  const worker = script.startsWith('workers/');
  const flags = worker ? WORKER_NODE_FLAGS : API_NODE_FLAGS;
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', script], { cwd: root, env: { ...process.env, ...(worker ? {} : API_PROCESS_ENV), ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  if (process.env.SHOW_LOGS === '1') child.stdout?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  child.stderr?.on('data', keep);
  child.on('exit', (code, signal) => {
    if (process.env.TEST_VERBOSE === '1' || (code && code !== 0 && signal === null)) {
      process.stderr.write(`[${script} exited ${code}]\n${output.join('').slice(-4000)}\n`);
    }
  });
  return child;
}

async function stop(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

export interface TestApp {
  url: string;
  apiPid: number;
  env: Record<string, string>;
  /** a fresh workspace and its key */
  workspace(name?: string): Promise<{ workspaceId: string; key: string }>;
  cli(...args: string[]): Promise<string>;
  startWorker(): Promise<void>;
  killWorker(signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

export async function startApp(extraEnv: Record<string, string> = {}): Promise<TestApp> {
  const port = await freePort();
  const env = { PORT: String(port), ...extraEnv };
  const api = startProcess('api/main.ts', env);
  let worker: ChildProcess | undefined = startProcess('workers/main.ts', env);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (api.exitCode !== null) throw new Error('API exited during start');
    if (Date.now() > deadline) throw new Error('API did not become healthy');
    await new Promise((r) => setTimeout(r, 150));
  }
  const cli = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], { cwd: root, env: { ...process.env, ...env } });
    return stdout;
  };
  return {
    url,
    apiPid: api.pid!,
    env,
    cli,
    async workspace(name = 'test') {
      const out = JSON.parse(await cli('workspace', 'create', '--name', name)) as { workspace_id: string; api_key: string };
      return { workspaceId: out.workspace_id, key: out.api_key };
    },
    async startWorker() {
      worker = startProcess('workers/main.ts', env);
    },
    async killWorker(signal: NodeJS.Signals = 'SIGKILL') {
      await stop(worker, signal);
      worker = undefined;
    },
    async stop() {
      await Promise.all([stop(worker), stop(api)]);
    },
  };
}

// `npm start`: brings up what is not already running (Temporal dev server + Web UI, MinIO with
// the bucket, Postgres migrations), then the API and one worker; Ctrl-C stops them all.
import { spawn, type ChildProcess } from 'node:child_process';
import { env } from '../lib/env.js';
import { repoRoot } from '../lib/dev-config.js';
import { API_NODE_FLAGS, API_PROCESS_ENV, ensureDatabaseReady, ensureS3, ensureTemporal, stopChild, WORKER_NODE_FLAGS } from '../lib/stack.js';

const e = env();
const say = (line: string) => process.stderr.write(`[distill] ${line}\n`);
const children: ChildProcess[] = [];

async function main() {
  await ensureDatabaseReady(e, say);
  const temporal = await ensureTemporal(e, { log: say });
  const s3 = await ensureS3(e, { log: say });
  for (const service of [temporal, s3]) if (service.child) children.push(service.child);

  const node = (script: string, flags: string[], extraEnv: Record<string, string> = {}) =>
    spawn(process.execPath, [...flags, '--import', 'tsx', script], { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  const api = node('api/main.ts', API_NODE_FLAGS, API_PROCESS_ENV);
  const worker = node('workers/main.ts', WORKER_NODE_FLAGS);
  children.push(api, worker);
  for (const [name, child] of [['API', api], ['worker', worker]] as const) {
    child.on('exit', (code, signal) => {
      if (!stopping) {
        say(`${name} exited (${signal ?? code}); stopping`);
        void stop(1);
      }
    });
  }
  say(`API:         http://${e.HOST}:${e.PORT}  (docs: /docs, OpenAPI: /openapi.json)`);
  say(`Temporal UI: ${temporal.url}/namespaces/${e.TEMPORAL_NAMESPACE}/workflows`);
  say(`S3:          ${s3.url} (bucket ${e.S3_BUCKET})`);
  say('Ctrl-C stops everything this command started.');
}

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  // API and worker first (they drain), then the servers they talk to.
  for (const child of children.slice().reverse()) await stopChild(child, 65_000);
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

main().catch((error: Error) => {
  say(`could not start: ${error.message}`);
  void stop(1);
});

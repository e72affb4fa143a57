// `npm test`: starts a private stack (Temporal, MinIO, a fresh database), then runs the unit and
// integration suites with node's test runner against it, and stops what it started.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { repoRoot } from '../lib/dev-config.js';
import { startTestStack } from '../lib/test-stack.js';

const say = (line: string) => process.stderr.write(`[test] ${line}\n`);
const only = process.argv.slice(2);

function testFiles(dir: string): string[] {
  return readdirSync(`${repoRoot}tests/${dir}`)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => `tests/${dir}/${f}`);
}

const files = only.length ? only : [...testFiles('unit'), ...testFiles('integration')];
const stack = await startTestStack(say);
say(`stack ready; running ${files.length} test files`);
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, ...stack.env },
  });
  child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
});
await stack.stop();
process.exit(code);

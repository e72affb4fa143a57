// Robustness sweep: every supported file under the given folders through the document reader,
// each in a child process with a time limit, so that a crash or a hang shows as one and stops
// nothing else. A file passes when it is read or refused with a message for users (DocumentError);
// any other error, a crash or running out of time is a defect, and is listed with the slowest files.
//   npm run sweep -- DIR... [--timeout SECONDS] [--pages N] [--parallel N]
// --pages reads at most the first N pages of each document (default 2; 0: all of them).
// Exits 1 when some file failed otherwise than with a DocumentError.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fileTypeOf } from '../lib/file-types.js';
import { mapLimited } from '../activities/documents/ocr/pool.js';

interface Outcome {
  file: string;
  outcome: 'read' | 'refused' | 'error' | 'crashed' | 'timed out';
  ms: number;
  detail: string;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { one: { type: 'string' }, timeout: { type: 'string', default: '300' }, pages: { type: 'string', default: '2' }, parallel: { type: 'string', default: '2' } },
});

/** In the child: reads one file and prints one JSON line (Outcome without `file`). */
async function readOne(file: string, pages: number): Promise<void> {
  const type = fileTypeOf(file)!;
  const { openDocument } = await import('../activities/documents/open.js');
  const guidance = { tableStart: {}, pages: pages > 0 ? Array.from({ length: pages }, (_, i) => i + 1) : undefined };
  const t0 = performance.now();
  let outcome: Omit<Outcome, 'file'>;
  try {
    const doc = await openDocument(file, type.key, type.extension, { guidance });
    let rows = 0;
    for (const sheet of doc.sheets) for await (const batch of sheet.batches()) rows += batch.length;
    outcome = { outcome: 'read', ms: performance.now() - t0, detail: `${doc.pageCount} pages, ${doc.sheets.length} tables, ${rows} rows` };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    outcome = { outcome: e.name === 'DocumentError' ? 'refused' : 'error', ms: performance.now() - t0, detail: e.name === 'DocumentError' ? e.message : (e.stack ?? e.message) };
  }
  console.log(JSON.stringify(outcome));
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && fileTypeOf(e.name)).map((e) => join(e.parentPath, e.name)).sort();
}

function sweepOne(file: string, timeoutSeconds: number, pages: number): Promise<Outcome> {
  const script = fileURLToPath(import.meta.url);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--one', file, '--pages', String(pages)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutSeconds * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      const line = stdout.trim().split('\n').pop() ?? '';
      if (signal === 'SIGKILL') resolve({ file, outcome: 'timed out', ms, detail: `killed after ${timeoutSeconds} s` });
      else if (code === 0 && line.startsWith('{')) resolve({ file, ...(JSON.parse(line) as Omit<Outcome, 'file'>) });
      else resolve({ file, outcome: 'crashed', ms, detail: `exit ${code ?? signal}: ${stderr.trim().split('\n').slice(-5).join(' | ')}` });
    });
  });
}

async function main(): Promise<void> {
  const pages = Number(values.pages);
  if (values.one) return readOne(values.one, pages);
  if (positionals.length === 0) {
    console.error('usage: npm run sweep -- DIR... [--timeout SECONDS] [--pages N] [--parallel N]');
    process.exit(2);
  }
  const files = (await Promise.all(positionals.map(filesUnder))).flat();
  const timeout = Number(values.timeout);
  let done = 0;
  const outcomes = await mapLimited(files, Math.max(1, Number(values.parallel)), async (file) => {
    const o = await sweepOne(file, timeout, pages);
    process.stderr.write(`\r${++done}/${files.length}`);
    return o;
  });
  process.stderr.write('\n');
  const count = (kind: Outcome['outcome']): number => outcomes.filter((o) => o.outcome === kind).length;
  console.log(`${files.length} files: ${count('read')} read, ${count('refused')} refused with a message, ${count('error')} errors, ${count('crashed')} crashed, ${count('timed out')} timed out`);
  const defects = outcomes.filter((o) => o.outcome !== 'read' && o.outcome !== 'refused');
  for (const o of defects) console.log(`${o.outcome.toUpperCase()} ${o.file}\n  ${o.detail}`);
  const refusals = new Map<string, number>();
  for (const o of outcomes) if (o.outcome === 'refused') refusals.set(o.detail, (refusals.get(o.detail) ?? 0) + 1);
  for (const [message, n] of refusals) console.log(`refused ×${n}: ${message}`);
  console.log('slowest (child process, start-up included):');
  for (const o of [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`  ${(o.ms / 1000).toFixed(1).padStart(6)} s  ${o.file}  ${o.outcome === 'read' ? o.detail : o.outcome}`);
  if (defects.length) process.exitCode = 1;
}

await main();

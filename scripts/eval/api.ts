// Extraction through the running service's REST API.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { execFile } from 'node:child_process';
import type { EvalTable } from './template.js';

export interface ApiClient {
  base: string;
  key: string;
}

async function call<T>(client: ApiClient, method: string, path: string, body?: string | FormData, json = true): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${client.key}` };
  if (body !== undefined && json) headers['content-type'] = 'application/json';
  const res = await fetch(`${client.base}${path}`, { method, headers, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export async function apiKey(): Promise<string> {
  if (process.env.DISTILL_API_KEY) return process.env.DISTILL_API_KEY;
  const out = await new Promise<string>((resolve, reject) =>
    execFile('npm', ['run', '--silent', 'cli', '--', 'workspace', 'create', '--name', 'eval'], { timeout: 120_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
  const line = out.trim().split('\n').reverse().find((l) => l.trim().startsWith('{'));
  if (!line) throw new Error(`workspace create printed no JSON: ${out}`);
  return (JSON.parse(line) as { api_key: string }).api_key;
}

export async function extractViaApi(client: ApiClient, file: string, name: string, tables: readonly EvalTable[], timeoutMs = 600_000): Promise<string[][]> {
  const template = await call<{ id: string }>(client, 'POST', '/v2/templates', JSON.stringify({ name, tables: tables.map((t) => ({ key: t.key, name: t.key, columns: t.columns })) }));
  const form = new FormData();
  form.append('file', new Blob([await readFile(file)]), basename(file));
  form.append('template_id', template.id);
  const created = await call<{ id: string }>(client, 'POST', '/v2/extractions/upload', form, false);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await call<{ status: string; error?: unknown }>(client, 'GET', `/v2/extractions/${created.id}`);
    if (state.status === 'completed') break;
    if (state.status === 'failed') throw new Error(`extraction failed: ${JSON.stringify(state.error ?? state)}`);
    if (Date.now() > deadline) throw new Error('extraction timed out');
    await new Promise((r) => setTimeout(r, 500));
  }
  const rows: string[][] = [];
  for (const table of tables) {
    const page = await call<{ rows: { index: number; values: Record<string, string> }[] }>(client, 'GET', `/v2/extractions/${created.id}/tables/${table.key}/rows?limit=1000`);
    rows.push(...page.rows.sort((a, b) => a.index - b.index).map((r) => table.columns.map((c) => r.values[c.key] ?? '')));
  }
  return rows;
}

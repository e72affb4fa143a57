// Bench of the spreadsheet pipeline: 500k×10 CSV upload → completed against Postgres COPY of the
// same file, filtered row-page latency, and the API's peak RSS while a 1 GB upload streams in.
import { createReadStream, createWriteStream, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { WorkflowHandle } from '@temporalio/client';
import { ApiClient } from '../tests/helpers/http.js';

export const BENCH_ROWS = 500_000;
const COLUMNS = ['id', 'sku', 'name', 'quantity', 'price', 'total', 'date', 'email', 'status', 'note'];

export async function writeBenchCsv(rows = BENCH_ROWS): Promise<string> {
  const path = join(tmpdir(), `distill-bench-${rows}.csv`);
  const out = createWriteStream(path);
  out.write(`${COLUMNS.join(',')}\n`);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    // About 1 row in 20 fails a validation, so filtered pages have something to find.
    const quantity = i % 20 === 7 ? 'n/a' : String(i % 97);
    chunk += `${i},SKU-${i % 5000},"Item ${i}, large",${quantity},${(i % 1000) / 10},${i % 777}.50,2024-0${(i % 9) + 1}-1${i % 9},user${i}@example.com,${i % 3 ? 'open' : 'closed'},note ${i}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return path;
}

export const benchTemplate = {
  name: 'Bench orders',
  tables: [
    {
      key: 'orders',
      name: 'Orders',
      columns: COLUMNS.map((key) => ({
        key,
        name: key,
        data_type: ({ id: 'integer', quantity: 'integer', price: 'number', total: 'currency', date: 'date', email: 'email' } as Record<string, string>)[key] ?? 'string',
      })),
    },
  ],
};

/** The baseline: COPY of the same file into a plain table, as fast as Postgres loads it. */
export async function copyBaseline(databaseUrl: string, path: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE TEMP TABLE bench_copy (${COLUMNS.map((c) => `"${c}" text`).join(', ')})`);
    const started = performance.now();
    await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), client.query(copyFrom("COPY bench_copy FROM STDIN WITH (FORMAT csv, HEADER true)")));
    return (performance.now() - started) / 1000;
  } finally {
    await client.end();
  }
}

/**
 * POSTs a multipart form whose file part is streamed from `file` (`size` bytes), as `curl -F
 * file=@PATH` does. (undici's fetch with a FormData body spends ~0.8 s of its own CPU encoding
 * 50 MB, which is the client's cost, not the service's.)
 */
export async function uploadFile(baseUrl: string, key: string, fields: Record<string, string>, file: Readable, size: number, fileName: string, contentType = 'text/csv'): Promise<{ status: number; body: any }> {
  const boundary = `----distill${Date.now()}`;
  const head = Buffer.from(
    Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL('/v2/extractions/upload', baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.write(head);
    file.pipe(req, { end: false });
    file.on('error', reject);
    file.on('end', () => req.end(tail));
  });
}

export async function uploadToCompleted(api: ApiClient, templateId: string, path: string): Promise<{ seconds: number; uploadSeconds: number; extractionId: string }> {
  const started = performance.now();
  const res = await uploadFile(api.baseUrl, api.key!, { template_id: templateId }, createReadStream(path, { highWaterMark: 1 << 20 }), statSync(path).size, 'bench.csv');
  if (res.status !== 202) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  const uploadSeconds = (performance.now() - started) / 1000;
  const done = await api.waitForExtraction(res.body.id, 600_000, 50);
  if (done.status !== 'completed') throw new Error(`extraction failed: ${done.error}`);
  return { seconds: (performance.now() - started) / 1000, uploadSeconds, extractionId: res.body.id };
}

/** Seconds each activity of a workflow took, scheduled to completed, from its Temporal history. */
export async function activitySeconds(handle: WorkflowHandle): Promise<[string, number][]> {
  const history = await handle.fetchHistory();
  const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
  const scheduled = new Map<string, { name: string; at: number }>();
  const out: [string, number][] = [];
  for (const event of history.events ?? []) {
    const attrs = event.activityTaskScheduledEventAttributes;
    if (attrs) scheduled.set(String(event.eventId), { name: attrs.activityType?.name ?? '?', at: ms(event.eventTime) });
    const completed = event.activityTaskCompletedEventAttributes;
    const start = completed && scheduled.get(String(completed.scheduledEventId));
    if (start) out.push([start.name, (ms(event.eventTime) - start.at) / 1000]);
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function pageLatency(api: ApiClient, extractionId: string, filter: string, requests = 300): Promise<{ p50: number; p99: number }> {
  const first = await api.get(`/v2/extractions/${extractionId}/tables/orders/rows?filter=${filter}&limit=1`);
  const total: number = first.body.pagination.total;
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const offset = Math.floor(Math.random() * Math.max(1, total - 100));
    const started = performance.now();
    const res = await api.get(`/v2/extractions/${extractionId}/tables/orders/rows?filter=${filter}&offset=${offset}&limit=100`);
    times.push(performance.now() - started);
    if (res.status !== 200 || res.body.rows.length === 0) throw new Error(`page failed: ${res.status}`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

function procStatusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
}

/** Streams `bytes` of generated CSV to the API (to an unknown template, so nothing is processed). */
export async function uploadRssPeak(baseUrl: string, key: string, apiPid: number, bytes = 1_000_000_000): Promise<{ peakMb: number; beforeMb: number; seconds: number }> {
  const beforeMb = procStatusKb(apiPid, 'VmRSS') / 1024;
  const line = Buffer.from('1234567,SKU-1,Some item name,3,12.5,37.50,2024-01-01,someone@example.com,open,note\n');
  const block = Buffer.concat(Array.from({ length: Math.floor((1 << 20) / line.length) }, () => line));
  let sent = 0;
  const body = new Readable({
    read() {
      const piece = block.subarray(0, Math.min(block.length, bytes - sent));
      sent += piece.length;
      this.push(piece.length ? piece : null);
    },
  });
  const started = performance.now();
  const res = await uploadFile(baseUrl, key, { template_id: 'tpl_not_there' }, body, bytes, 'big.csv');
  if (res.status !== 404) throw new Error(`expected the unknown template to be refused after streaming, got ${res.status}`);
  return { peakMb: procStatusKb(apiPid, 'VmHWM') / 1024, beforeMb, seconds: (performance.now() - started) / 1000 };
}

export function fileMb(path: string): number {
  return statSync(path).size / 1024 ** 2;
}

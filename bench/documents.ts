// Documents through the HTTP API, upload → completed, as a caller sees them: every sample PDF
// (digital), then every one of their pages as a 300 dpi PNG (OCR), all of a kind uploaded at once
// (a batch arriving) and timed from the first upload until the last extraction has completed: the
// moment the service recorded it (its updated_at when it became completed, read from Postgres
// once polling has seen the batch through), not the poll that noticed it: polling every 50 ms,
// the polls saw one-second batches of the sample PDFs 50 ms late on average, a twentieth of the
// figure.
// bench/run.ts prints these beside pdftotext -layout and plain tesseract on the same files
// (bench/pdf.ts), measured in the same run. Prints nothing itself.
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import pg from 'pg';
import type { ApiClient } from '../tests/helpers/http.js';
import { uploadFile } from './rows.js';

/** One generic table: each document's tables map to it by position, rows load as for any upload. */
export const documentTemplate = {
  name: 'Bench documents',
  tables: [{ key: 'rows', name: 'Rows', columns: Array.from({ length: 12 }, (_, i) => ({ key: `c${i + 1}`, name: `Column ${i + 1}` })) }],
};

const CONTENT_TYPES: Record<string, string> = { pdf: 'application/pdf', png: 'image/png' };

// Polls only tell the client that the batch is through (the figure is the recorded completion),
// and each is CPU (API, Postgres, this process) taken from the work being timed: every 2% of the
// time waited so far, at least 250 ms apart, so that a 30 s OCR batch is polled about 100 times
// instead of 600 and a one-second batch of PDFs about 4 times instead of 20.
const POLL_MIN_MS = 250;
const POLL_SHARE = 0.02;
const TIMEOUT_MS = 600_000;

async function upload(api: ApiClient, templateId: string, path: string): Promise<string> {
  const name = basename(path);
  const type = CONTENT_TYPES[name.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';
  const res = await uploadFile(api.baseUrl, api.key!, { template_id: templateId }, createReadStream(path), statSync(path).size, name, type);
  if (res.status !== 202) throw new Error(`upload of ${name} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/**
 * Waits until every one of `ids` has completed, as a client with a batch in flight does: one
 * list request per poll (the template's newest extractions), not one request per document,
 * which would take the service's CPU from the work it is timed on.
 */
async function waitForBatch(api: ApiClient, templateId: string, ids: readonly string[], startedAt: number): Promise<void> {
  const waiting = new Set(ids);
  const deadline = Date.now() + TIMEOUT_MS;
  while (waiting.size) {
    const res = await api.get(`/v2/extractions?template_id=${templateId}&limit=${Math.min(1000, Math.max(ids.length, 1))}`);
    if (res.status !== 200) throw new Error(`list extractions: ${res.status} ${res.text}`);
    for (const summary of res.body.extractions as { id: string; status: string }[]) {
      if (!waiting.has(summary.id) || summary.status === 'processing') continue;
      if (summary.status !== 'completed') {
        const failed = await api.get(`/v2/extractions/${summary.id}`);
        throw new Error(`extraction ${summary.id} ended ${summary.status}: ${JSON.stringify(failed.body.error)}`);
      }
      waiting.delete(summary.id);
    }
    if (Date.now() > deadline) throw new Error(`${waiting.size} extraction(s) still processing after ${TIMEOUT_MS} ms`);
    if (waiting.size) await new Promise((r) => setTimeout(r, Math.max(POLL_MIN_MS, POLL_SHARE * (Date.now() - startedAt))));
  }
}

/** When the last of `ids` was recorded completed, in ms since the epoch. */
export type CompletionClock = (ids: readonly string[]) => Promise<number>;

/** The completion times the service recorded, read from its database (timestamps are UTC). */
export function completionClock(databaseUrl: string): { completedAt: CompletionClock; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  return {
    async completedAt(ids) {
      const { rows } = await pool.query<{ ms: string }>(
        `SELECT extract(epoch FROM max(updated_at)) * 1000 AS ms FROM extractions WHERE id = ANY($1::text[]) AND status = 'completed'`,
        [ids],
      );
      return Number(rows[0]!.ms);
    },
    close: () => pool.end(),
  };
}

/** A running service to time uploads against, the template they are extracted with, and its completion times. */
export interface BenchApi {
  client: ApiClient;
  templateId: string;
  /** when the service recorded a batch's last extraction completed */
  completedAt: CompletionClock;
}

/** Uploads `files` at once, waits for every extraction: seconds from the first upload to the last completed. */
export async function uploadBatch({ client, templateId, completedAt }: BenchApi, files: readonly string[]): Promise<number> {
  const startedAt = Date.now();
  const ids = await Promise.all(files.map((f) => upload(client, templateId, f)));
  await waitForBatch(client, templateId, ids, startedAt);
  return ((await completedAt(ids)) - startedAt) / 1000;
}

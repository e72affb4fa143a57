// `npm run bench`: figures, each beside a baseline measured in the same run. Prints; asserts nothing.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { startTestStack } from '../lib/test-stack.js';
import { startApp } from '../tests/helpers/app.js';
import { ApiClient } from '../tests/helpers/http.js';
import { completionClock, documentTemplate } from './documents.js';
import { benchFlows } from './flows.js';
import { benchPdf } from './pdf.js';
import { activitySeconds, BENCH_ROWS, benchTemplate, copyBaseline, fileMb, pageLatency, uploadRssPeak, uploadToCompleted, writeBenchCsv } from './rows.js';

const say = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number, digits = 2) => n.toFixed(digits);

const stack = await startTestStack((line) => process.stderr.write(`[bench] ${line}\n`));
Object.assign(process.env, stack.env);
const app = await startApp();
const only = process.env.BENCH_ONLY;
try {
  const { key } = await app.workspace('bench');
  // Timings must not include the tests' response validation.
  const api = new ApiClient(app.url, key, { validate: false });
  const template = await api.post('/v2/templates', benchTemplate);

  const part = (name: string) => !only || only.split(',').includes(name);
  if (part('rows')) {
  say(`# Spreadsheet pipeline (${BENCH_ROWS.toLocaleString('en')} rows × 10 columns)`);
  const csv = await writeBenchCsv();
  // Warm-up, as for the PDF figures: a long-lived worker has loaded its readers, opened its
  // connections and compiled its hot loops before the import that is timed.
  const warmUpRows = 50_000;
  await uploadToCompleted(api, template.body.id, await writeBenchCsv(warmUpRows));
  const copySeconds = await copyBaseline(stack.env.DATABASE_URL!, csv);
  const { seconds, uploadSeconds, extractionId } = await uploadToCompleted(api, template.body.id, csv);
  say(`file                      ${fmt(fileMb(csv), 1)} MB`);
  say(`Postgres COPY baseline    ${fmt(copySeconds)} s`);
  say(`upload → completed        ${fmt(seconds)} s   (${Math.round(BENCH_ROWS / seconds).toLocaleString('en')} rows/s; after a ${warmUpRows.toLocaleString('en')}-row warm-up import)`);
  say(`ratio to COPY             ${fmt(seconds / copySeconds, 1)}×   (goal ≤ 5×)`);
  // Page latency once the workflow has closed (its last step vacuums the new rows).
  const connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS! });
  const handle = new Client({ connection, namespace: stack.env.TEMPORAL_NAMESPACE! }).workflow.getHandle(`extraction-${extractionId}`);
  await handle.result();
  const stages = (await activitySeconds(handle)).filter(([name]) => name !== 'optimizeRows').map(([name, s]) => `${name} ${fmt(s)} s`);
  say(`  of which                 upload (202) ${fmt(uploadSeconds)} s; ${stages.join('; ')}`);
  await connection.close();

  for (const filter of ['invalid', 'valid', 'all']) {
    const { p50, p99 } = await pageLatency(api, extractionId, filter);
    say(`100-row page, filter=${filter.padEnd(8)} p50 ${fmt(p50, 1)} ms, p99 ${fmt(p99, 1)} ms   (goal p99 < 50 ms)`);
  }

  }

  if (part('rss')) {
  const upload = await uploadRssPeak(app.url, key, app.apiPid);
  say(`API peak RSS, 1 GB upload ${fmt(upload.peakMb, 0)} MB in ${fmt(upload.seconds, 1)} s   (RSS before ${fmt(upload.beforeMb, 0)} MB; goal < 300 MB)`);
  }

  if (part('pdf')) {
    const dir = fileURLToPath(new URL('../../shared/datasets/pdf-tables/', import.meta.url));
    if (existsSync(dir)) {
      const files = readdirSync(dir).filter((f) => f.endsWith('.pdf')).map((f) => `${dir}${f}`);
      const documents = await api.post('/v2/templates', documentTemplate);
      const clock = completionClock(stack.env.DATABASE_URL!);
      const r = await benchPdf(files, { client: api, templateId: documents.body.id, completedAt: clock.completedAt }).finally(() => clock.close());
      const viaApi = r.api!;
      say(`\n# Documents (${r.digitalPages} PDF pages; OCR of the same ${r.ocrPages} pages as 300 dpi PNGs)`);
      say(`digital PDF, upload → completed  ${fmt(viaApi.digitalPagesPerSecond, 1)} pages/s   (pdftotext -layout ${fmt(r.pdftotextPagesPerSecond, 1)} pages/s; goal ≥ 20)`);
      say(`  the reading alone              ${fmt(r.digitalPagesPerSecond, 1)} pages/s`);
      say(`OCR, upload → completed          ${fmt(viaApi.ocrSecondsPerPage)} s/page   (plain tesseract ${fmt(r.tesseractSecondsPerPage)} s/page; ratio ${fmt(viaApi.ocrSecondsPerPage / r.tesseractSecondsPerPage)}×, goal ≤ 1.2×)`);
      say(`  the reading alone              ${fmt(r.ocrSecondsPerPage)} s/page   (ratio ${fmt(r.ocrSecondsPerPage / r.tesseractSecondsPerPage)}×; CPU ${fmt(r.ocrCpuSecondsPerPage / r.tesseractCpuSecondsPerPage)}×)`);
    }
  }

  if (part('flows')) {
    const r = await benchFlows(app.url, key);
    say('\n# Flows (two-step flow)');
    say(`runs per minute           ${fmt(r.runsPerMinute, 1)}`);
    say(`upload → completed        ${fmt(r.uploadToCompletedSeconds)} s`);
  }
} finally {
  await app.stop();
  await stack.stop();
}

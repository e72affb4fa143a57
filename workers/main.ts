// A worker process: runs extraction and flow workflows and their activities. Start more of
// these (on more machines) to scale; they only need the same env as the API.
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { PageSlots } from '../activities/documents/ocr/pool.js';
import { languageArgument } from '../activities/documents/ocr/tesseract.js';
import { createDatabase } from '../lib/db.js';
import { env } from '../lib/env.js';
import { log } from '../lib/log.js';
import { createStorage } from '../lib/storage.js';

const e = env();
const db = createDatabase(e.DATABASE_URL, 8);
const storage = createStorage({ endpoint: e.S3_ENDPOINT, region: e.S3_REGION, bucket: e.S3_BUCKET, accessKey: e.S3_ACCESS_KEY, secretKey: e.S3_SECRET_KEY });
const connection = await NativeConnection.connect({
  address: e.TEMPORAL_ADDRESS,
  tls: e.TEMPORAL_TLS ? {} : undefined,
  apiKey: e.TEMPORAL_API_KEY,
});

// A prebuilt bundle (tests, production images) skips webpack at start.
const workflowSource: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> = process.env.WORKFLOW_BUNDLE_PATH
  ? { workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH } }
  : { workflowsPath: fileURLToPath(new URL('../workflows/index.ts', import.meta.url)) };

const worker = await Worker.create({
  connection,
  namespace: e.TEMPORAL_NAMESPACE,
  taskQueue: e.TEMPORAL_TASK_QUEUE,
  ...workflowSource,
  activities: createActivities({ db, storage, ocr: { languages: e.OCR_LANGUAGES, pageSlots: new PageSlots(e.OCR_CONCURRENCY) } }),
  maxConcurrentActivityTaskExecutions: e.WORKER_MAX_ACTIVITIES,
  // On SIGTERM/SIGINT (the Runtime's default shutdown signals) the worker stops polling and lets
  // running activities finish for up to this long before it exits.
  shutdownGraceTime: '60s',
});

log.info('worker started', { task_queue: e.TEMPORAL_TASK_QUEUE, namespace: e.TEMPORAL_NAMESPACE });
// Said once at start: otherwise each scanned document would be the first to find out.
await languageArgument(e.OCR_LANGUAGES).catch((error: Error) => log.warn(`OCR_LANGUAGES: ${error.message}; scanned pages will fail until it is`));
try {
  await worker.run();
} finally {
  await connection.close();
  await db.close();
  log.info('worker stopped');
}

// The API process: one Temporal client, one database pool, one S3 client.
import { serve } from '@hono/node-server';
import { createDatabase } from '../lib/db.js';
import { env } from '../lib/env.js';
import { log } from '../lib/log.js';
import { createStorage } from '../lib/storage.js';
import { createTemporalClient } from '../lib/temporal.js';
import { createApp } from './app.js';

const e = env();
const db = createDatabase(e.DATABASE_URL, 20);
const storage = createStorage({ endpoint: e.S3_ENDPOINT, region: e.S3_REGION, bucket: e.S3_BUCKET, accessKey: e.S3_ACCESS_KEY, secretKey: e.S3_SECRET_KEY });
const { client: temporal, connection } = await createTemporalClient(e);
const app = createApp({ env: e, db, storage, temporal });

const server = serve({ fetch: app.fetch, port: e.PORT, hostname: e.HOST }, (info) => {
  log.info('api listening', { url: `http://${info.address}:${info.port}` });
});
// Uploads of 1 GB take a while; don't cut them off.
(server as unknown as { requestTimeout: number }).requestTimeout = 0;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info('api draining', { signal });
  // Stop accepting; in-flight requests finish, then the clients close.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const force = setTimeout(() => (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.(), 30_000);
  (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  await closed;
  clearTimeout(force);
  await connection.close();
  await db.close();
  log.info('api stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

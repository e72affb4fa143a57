// The S3 adapter against the test stack's real MinIO: streamed uploads of unknown length in
// concurrent parts come back byte for byte (ranged reads and downloads to a file too), and a failed stream leaves nothing,
// also when the failure is a client hanging up in the middle of an upload to the API.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, it } from 'node:test';
import * as Minio from 'minio';
import { env } from '../../lib/env.js';
import { createStorage } from '../../lib/storage.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { ApiClient } from '../helpers/http.js';

const config = env();
const storage = createStorage({ endpoint: config.S3_ENDPOINT, region: config.S3_REGION, bucket: config.S3_BUCKET, accessKey: config.S3_ACCESS_KEY, secretKey: config.S3_SECRET_KEY });
const MiB = 1024 * 1024;
const endpoint = new URL(config.S3_ENDPOINT);
const minio = new Minio.Client({ endPoint: endpoint.hostname, port: Number(endpoint.port), useSSL: false, accessKey: config.S3_ACCESS_KEY, secretKey: config.S3_SECRET_KEY, pathStyle: true });

/**
 * Multipart uploads started and neither completed nor aborted, anywhere in the test stack's
 * MinIO. Its ListMultipartUploads answers only for an exact object name, which a test that never
 * got a response cannot know, so this reads MinIO's own record of them (.minio.sys/multipart).
 */
function unfinishedUploads(): string[] {
  const dir = join(config.DISTILL_DATA_DIR, 's3', '.minio.sys', 'multipart');
  return existsSync(dir) ? readdirSync(dir).flatMap((object) => readdirSync(join(dir, object)).map((upload) => `${object}/${upload}`)) : [];
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The bytes as a stream of uneven chunks, the way a multipart body arrives. */
function unevenStream(bytes: Buffer, failAt?: number): Readable {
  let at = 0;
  let k = 0;
  return new Readable({
    read() {
      if (failAt !== undefined && at >= failAt) {
        this.destroy(new Error('client went away'));
        return;
      }
      if (at >= bytes.length) {
        this.push(null);
        return;
      }
      const size = [65_537, 1_000_003, 17, 3 * MiB + 5][k++ % 4]!;
      this.push(bytes.subarray(at, at + size));
      at += size;
    },
  });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('S3 storage', () => {
  const pattern = randomBytes(MiB);
  const bytesOf = (size: number) => Buffer.concat(Array.from({ length: Math.ceil(size / MiB) }, (_, i) => Buffer.concat([Buffer.from([i & 255]), pattern.subarray(1)]))).subarray(0, size);

  for (const size of [0, 1000, 8 * MiB - 1, 8 * MiB, 8 * MiB + 1, 27 * MiB + 333]) {
    it(`stores a streamed body of ${size} bytes exactly`, async () => {
      const key = `tests/storage/${size}-${Date.now()}`;
      const bytes = bytesOf(size);
      await storage.putStream(key, unevenStream(bytes), 'application/octet-stream');
      assert.deepEqual(await storage.stat(key), { size });
      assert.equal(sha(await storage.getBuffer(key)), sha(bytes));
      if (size > 0) {
        assert.deepEqual(await storage.getHead(key, 4096), bytes.subarray(0, 4096));
        assert.equal(sha(await readAll(await storage.getStream(key, 5))), sha(bytes.subarray(5)));
      }
      const dir = await mkdtemp(join(tmpdir(), 'storage-'));
      try {
        assert.equal(await storage.downloadTo(key, join(dir, 'copy')), true);
        assert.equal(sha(await readFile(join(dir, 'copy'))), sha(bytes));
        assert.deepEqual(readdirSync(dir), ['copy']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      await storage.remove(key);
    });
  }

  it('downloads nothing for a key that does not exist', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'storage-'));
    try {
      assert.equal(await storage.downloadTo(`tests/storage/missing-${Date.now()}`, join(dir, 'copy')), false);
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves no object when the body fails part-way', async () => {
    const key = `tests/storage/failed-${Date.now()}`;
    await assert.rejects(storage.putStream(key, unevenStream(bytesOf(30 * MiB), 20 * MiB), 'application/octet-stream'), /client went away/);
    assert.equal(await storage.stat(key), null);
    assert.deepEqual(unfinishedUploads(), []);
  });
});

describe('an upload the client abandons', () => {
  let app: TestApp | undefined;
  after(async () => {
    await app?.stop();
  });

  async function leftovers(prefix: string): Promise<{ objects: string[]; incomplete: string[] }> {
    const objects: string[] = [];
    for await (const item of minio.listObjectsV2(config.S3_BUCKET, prefix, true)) if (item.name) objects.push(item.name);
    return { objects, incomplete: unfinishedUploads() };
  }

  it('leaves no object and no unfinished multipart upload behind', async () => {
    app = await startApp({ MAX_UPLOAD_BYTES: String(64 * MiB) });
    const { workspaceId, key } = await app.workspace('abandoned');
    const port = Number(new URL(app.url).port);
    const boundary = '----abandoned';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="template_id"\r\n\r\nauto\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(`POST /v2/extractions/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${40 * MiB}\r\n\r\n${head}`);
    // 20 MiB of the promised 40: two parts are stored or in flight when the client hangs up.
    const block = Buffer.alloc(MiB, 'a,b,c\n');
    for (let i = 0; i < 20; i++) if (!socket.write(block)) await new Promise((r) => socket.once('drain', r));
    await new Promise((r) => setTimeout(r, 500));
    socket.destroy();

    const prefix = `uploads/${workspaceId}/`;
    let left = await leftovers(prefix);
    for (let i = 0; i < 50 && (left.objects.length || left.incomplete.length); i++) {
      await new Promise((r) => setTimeout(r, 200));
      left = await leftovers(prefix);
    }
    assert.deepEqual(left, { objects: [], incomplete: [] });
    const list = await new ApiClient(app.url, key).get('/v2/extractions');
    assert.equal(list.body.total, 0, 'no extraction is recorded for an upload that never finished');
  });
});


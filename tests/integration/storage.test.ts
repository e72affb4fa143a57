// The S3 adapter against the test stack's real MinIO: streamed uploads of unknown length in
// concurrent parts come back byte for byte, ranged reads work, and a failed stream leaves nothing.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { env } from '../../lib/env.js';
import { createStorage } from '../../lib/storage.js';

const config = env();
const storage = createStorage({ endpoint: config.S3_ENDPOINT, region: config.S3_REGION, bucket: config.S3_BUCKET, accessKey: config.S3_ACCESS_KEY, secretKey: config.S3_SECRET_KEY });
const MiB = 1024 * 1024;
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

  for (const size of [0, 1000, 8 * MiB, 8 * MiB + 1, 27 * MiB + 333]) {
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
      await storage.remove(key);
    });
  }

  it('leaves no object when the body fails part-way', async () => {
    const key = `tests/storage/failed-${Date.now()}`;
    await assert.rejects(storage.putStream(key, unevenStream(bytesOf(30 * MiB), 20 * MiB), 'application/octet-stream'), /client went away/);
    assert.equal(await storage.stat(key), null);
  });
});

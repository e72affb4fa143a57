import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { streamParts } from '../../lib/stream-parts.js';

/** The bytes as a stream of chunks of uneven sizes (1, 7, 4096, 65536, ... repeating). */
async function* chunksOf(bytes: Buffer): AsyncGenerator<Buffer> {
  const sizes = [1, 7, 4096, 65_536, 300];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = Math.min(sizes[i % sizes.length]!, bytes.length - at);
    yield Buffer.from(bytes.subarray(at, at + n));
    at += n;
  }
}

async function cut(bytes: Buffer, size: number, buffers: Buffer[] = []): Promise<Buffer[]> {
  const parts: Buffer[] = [];
  // Copies: a part buffer is handed back for reuse as soon as it is "sent", as putStream does.
  for await (const part of streamParts(chunksOf(bytes), size, buffers)) {
    parts.push(Buffer.from(part));
    if (part.length === size) buffers.push(part);
  }
  return parts;
}

describe('streamParts', () => {
  const size = 100_000;

  it('yields a body shorter than one part as one buffer of its own length, never a part buffer', async () => {
    const bytes = randomBytes(70_001);
    const parts: Buffer[] = [];
    for await (const part of streamParts(chunksOf(bytes), size, [])) parts.push(part);
    assert.equal(parts.length, 1);
    assert.deepEqual(parts[0], bytes);
    assert.ok(parts[0]!.buffer.byteLength < size, `backed by ${parts[0]!.buffer.byteLength} bytes`);
  });

  it('yields nothing for an empty body', async () => {
    assert.deepEqual(await cut(Buffer.alloc(0), size), []);
  });

  for (const length of [size - 1, size, size + 1, 3 * size + 12_345]) {
    it(`cuts ${length} bytes into whole parts and a shorter last one, bytes unchanged`, async () => {
      const bytes = randomBytes(length);
      const parts = await cut(bytes, size);
      assert.equal(parts.length, Math.ceil(length / size));
      parts.slice(0, -1).forEach((p) => assert.equal(p.length, size));
      assert.equal(parts.at(-1)!.length, length - (parts.length - 1) * size);
      assert.deepEqual(Buffer.concat(parts), bytes);
    });
  }

  it('reuses the part buffers it is given back', async () => {
    const spare: Buffer[] = [];
    const seen = new Set<ArrayBufferLike>();
    for await (const part of streamParts(chunksOf(randomBytes(5 * size)), size, spare)) {
      seen.add(part.buffer);
      spare.push(part);
    }
    assert.equal(seen.size, 1);
  });
});

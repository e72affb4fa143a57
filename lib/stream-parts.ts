// Cuts an upload's body into the parts it is stored in (lib/storage.ts putStream).
import type { Readable } from 'node:stream';

/**
 * Cuts a stream into parts of exactly `size` bytes (the last may be shorter).
 *
 * A body shorter than one part (nearly every document) is yielded as one buffer of its own
 * length, made from the chunks as they came: it never touches a part buffer. An 8 MiB buffer per
 * upload, written into page by page, cost each small upload a megabyte of copying page faults,
 * and its external memory set off full garbage collections in the API (half of its CPU while
 * batches of small documents came in).
 *
 * From the first full part on, chunks are copied into buffers taken from `buffers` (the caller
 * returns sent parts there): an upload reuses the same few buffers instead of allocating `size`
 * bytes per part and leaving the garbage collector to notice (a 1 GB upload would churn 120 of them).
 */
export async function* streamParts(body: Readable | AsyncIterable<Buffer | string>, size: number, buffers: Buffer[]): AsyncGenerator<Buffer> {
  let held: Buffer[] | null = [];
  let heldLength = 0;
  let part: Buffer | null = null;
  let length = 0;
  function* fill(piece: Buffer): Generator<Buffer> {
    let at = 0;
    while (at < piece.length) {
      part ??= buffers.pop() ?? Buffer.allocUnsafe(size);
      const copied = piece.copy(part, length, at, Math.min(piece.length, at + size - length));
      at += copied;
      length += copied;
      if (length === size) {
        yield part;
        part = null;
        length = 0;
      }
    }
  }
  for await (const chunk of body as AsyncIterable<Buffer | string>) {
    const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (held) {
      held.push(piece);
      heldLength += piece.length;
      if (heldLength < size) continue;
      const pieces = held;
      held = null;
      for (const p of pieces) yield* fill(p);
      continue;
    }
    yield* fill(piece);
  }
  if (held) {
    if (heldLength > 0) yield held.length === 1 ? held[0]! : Buffer.concat(held, heldLength);
  } else if (part && length > 0) {
    yield (part as Buffer).subarray(0, length);
  }
}

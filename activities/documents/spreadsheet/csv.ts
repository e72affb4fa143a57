// CSV/TSV files as a SheetSource: encoding and delimiter are decided once from the first 64 KB,
// then every batches() call streams the bytes again from the start (a file on disk in 1 MiB
// reads, or an S3 object), so memory stays at one chunk plus one batch of rows whatever the size.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { DocumentError } from '../errors.js';
import type { SheetSource } from '../types.js';
import { CsvParser } from './csv-parser.js';
import { detectDelimiter } from './delimiter.js';
import { createChunkDecoder, detectEncoding, SNIFF_BYTES, type TextEncoding } from './encoding.js';

/** Rows per yielded batch: large enough that per-batch async overhead vanishes at 500k rows. */
export const CSV_BATCH_ROWS = 4000;
const READ_CHUNK_BYTES = 1024 * 1024;
const PARSE_SLICE_CHARS = 128 * 1024;

export interface CsvFormat {
  encoding: TextEncoding;
  /** Bytes of byte order mark at the start of the file, skipped when reading. */
  bomLength: number;
  delimiter: string;
}

/** Where a text file's bytes come from: a local file or an object store. */
export interface ByteSource {
  size: number;
  /** Up to `length` bytes from the start. */
  head(length: number): Promise<Buffer>;
  /** The bytes from `start` to the end. */
  stream(start: number): Promise<Readable>;
}

export async function fileByteSource(path: string): Promise<ByteSource> {
  const handle = await open(path, 'r');
  let size: number;
  try {
    size = (await handle.stat()).size;
  } finally {
    await handle.close();
  }
  return {
    size,
    async head(length) {
      const file = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(Math.min(length, size));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await file.close();
      }
    },
    stream: async (start) => createReadStream(path, { start, highWaterMark: READ_CHUNK_BYTES }),
  };
}

/** Reads the first 64 KB to settle the encoding and, unless given, the delimiter. */
export async function sniffCsvFormat(input: string | ByteSource, delimiter?: string): Promise<CsvFormat> {
  const source = typeof input === 'string' ? await fileByteSource(input) : input;
  const head = await source.head(SNIFF_BYTES);
  const complete = head.length >= source.size;
  const { encoding, bomLength } = detectEncoding(head, complete);
  if (encoding !== 'utf-16le' && encoding !== 'utf-16be' && looksBinary(head)) {
    throw new DocumentError('The CSV file could not be read: it is not a text file');
  }
  if (delimiter !== undefined) return { encoding, bomLength, delimiter };
  const sample = createChunkDecoder(encoding).write(head.subarray(bomLength));
  return { encoding, bomLength, delimiter: detectDelimiter(sample, complete) };
}

/** Streams the file's rows from the start, in batches of `batchRows` (the last may be shorter). */
export async function* readCsvBatches(
  input: string | ByteSource,
  format: CsvFormat,
  batchRows: number = CSV_BATCH_ROWS,
): AsyncGenerator<string[][]> {
  const source = typeof input === 'string' ? await fileByteSource(input) : input;
  const stream = await source.stream(format.bomLength);
  const decoder = createChunkDecoder(format.encoding);
  const parser = new CsvParser(format.delimiter);
  let batch: string[][] = [];
  try {
    for await (const bytes of stream as AsyncIterable<Buffer>) {
      const text = decoder.write(bytes);
      // Parsing a 1 MiB read in smaller slices hands rows on sooner, so fewer of them are alive
      // at once; that keeps them in V8's young generation, where collecting them is cheap.
      for (let at = 0; at < text.length; at += PARSE_SLICE_CHARS) {
        parser.push(text.slice(at, at + PARSE_SLICE_CHARS), batch);
        if (batch.length >= batchRows) {
          let from = 0;
          for (; from + batchRows <= batch.length; from += batchRows) yield batch.slice(from, from + batchRows);
          batch = batch.slice(from);
        }
      }
    }
  } finally {
    // Also reached when the consumer stops early: release the file at once.
    stream.destroy();
  }
  parser.push(decoder.end(), batch);
  batch.push(...parser.end());
  for (let from = 0; from < batch.length; from += batchRows) yield batch.slice(from, from + batchRows);
}

export async function openCsv(input: string | ByteSource, name: string, delimiter?: string): Promise<SheetSource> {
  const source = typeof input === 'string' ? await fileByteSource(input) : input;
  const format = await sniffCsvFormat(source, delimiter);
  return { name, batches: () => readCsvBatches(source, format) };
}

// Text has next to no control characters (UTF-16 aside, detected before this); a PDF or image
// renamed to .csv is full of them, and parsing it would hand the mapper pages of garbage rows.
const BINARY_SIGNATURES = ['%PDF-', '\x89PNG', '\xff\xd8\xff', 'GIF8'].map((s) => Buffer.from(s, 'latin1'));

function looksBinary(head: Uint8Array): boolean {
  if (BINARY_SIGNATURES.some((signature) => Buffer.from(head.subarray(0, signature.length)).equals(signature))) return true;
  let control = 0;
  for (const byte of head) if (byte < 0x09 || (byte > 0x0d && byte < 0x20)) control++;
  return control > head.length / 100;
}

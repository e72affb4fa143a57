// CSV/TSV files as a SheetSource: encoding and delimiter are decided once from the first 64 KB,
// then every batches() call streams the file again from disk in 1 MiB reads, so memory stays at
// one chunk plus one batch of rows whatever the file's size.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
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

/** Reads the first 64 KB to settle the encoding and, unless given, the delimiter. */
export async function sniffCsvFormat(path: string, delimiter?: string): Promise<CsvFormat> {
  const handle = await open(path, 'r');
  let head: Buffer;
  let complete: boolean;
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    head = buffer.subarray(0, bytesRead);
    complete = bytesRead < SNIFF_BYTES || (await handle.stat()).size === bytesRead;
  } finally {
    await handle.close();
  }
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
  path: string,
  format: CsvFormat,
  batchRows: number = CSV_BATCH_ROWS,
): AsyncGenerator<string[][]> {
  const stream = createReadStream(path, { start: format.bomLength, highWaterMark: READ_CHUNK_BYTES });
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

export async function openCsv(path: string, name: string, delimiter?: string): Promise<SheetSource> {
  const format = await sniffCsvFormat(path, delimiter);
  return { name, batches: () => readCsvBatches(path, format) };
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

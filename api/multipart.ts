// Streams a multipart body: small text parts are collected, file parts go straight to S3.
// Nothing is buffered whole; a file over the limit is counted to the end but not stored.
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import type { Context } from 'hono';
import type { AppEnv } from './context.js';
import type { Storage } from '../lib/storage.js';
import { badRequest } from './errors.js';

export interface StoredFile {
  field: string;
  fileName: string;
  size: number;
  /** undefined when the file was not stored (rejected type or over the limit) */
  objectKey?: string;
  mimeType: string;
}

export interface MultipartResult {
  fields: Record<string, string>;
  files: StoredFile[];
}

export interface FilePlan {
  /** S3 key for this part, or null to count and discard it (e.g. an unsupported type). */
  objectKey: string | null;
  contentType: string;
  maxBytes: number;
}

const MAX_FIELD_BYTES = 1024 * 1024;

/**
 * The request body as a Node stream: under @hono/node-server the socket's own IncomingMessage,
 * unread (turning it into a web stream and back costs more CPU than the upload itself at 50 MB);
 * otherwise the web body.
 */
export function requestBody(c: Context<AppEnv>): Readable | null {
  const incoming = c.env?.incoming;
  if (incoming && !incoming.readableDidRead) return incoming;
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as unknown as WebReadableStream<Uint8Array>) : null;
}

export async function receiveMultipart(
  c: Context<AppEnv>,
  storage: Storage,
  planFile: (field: string, fileName: string, index: number) => FilePlan,
): Promise<MultipartResult> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) throw badRequest('The request must be multipart/form-data');
  const body = requestBody(c);
  if (!body) return { fields: {}, files: [] };

  const fields: Record<string, string> = {};
  const files: StoredFile[] = [];
  const uploads: Promise<void>[] = [];
  const planned: string[] = [];

  const parser = busboy({ headers: { 'content-type': contentType }, limits: { fieldSize: MAX_FIELD_BYTES, fields: 200, files: 100 }, defParamCharset: 'utf8' });
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const record: StoredFile = { field, fileName: info.filename ?? '', size: 0, mimeType: info.mimeType };
      files.push(record);
      const plan = planFile(field, record.fileName, files.length - 1);
      let sink: PassThrough | null = null;
      if (plan.objectKey) {
        const key = plan.objectKey;
        const target = new PassThrough({ highWaterMark: 1024 * 1024 });
        sink = target;
        planned.push(key);
        record.objectKey = key;
        uploads.push(storage.putStream(key, target, plan.contentType).catch((error: Error) => {
          // A part cut off over the limit was meant to fail; anything else fails the request.
          if (record.objectKey) throw error;
        }));
      }
      stream.on('data', (chunk: Buffer) => {
        record.size += chunk.length;
        if (!sink) return;
        if (record.size > plan.maxBytes) {
          // Over the limit: the upload is abandoned (putStream aborts it); the rest is only counted.
          record.objectKey = undefined;
          sink.destroy(new Error('over the size limit'));
          sink = null;
          return;
        }
        if (!sink.write(chunk)) {
          stream.pause();
          sink.once('drain', () => stream.resume());
        }
      });
      stream.on('end', () => sink?.end());
      stream.on('error', (error: Error) => {
        // The body broke off (e.g. the client hung up): the S3 upload must end too, not wait forever.
        sink?.destroy(error);
        reject(error);
      });
    });
    parser.on('close', resolve);
    parser.on('error', (error: Error) => reject(badRequest(`The multipart body could not be read: ${error.message}`)));
  });

  body.on('error', (error) => parser.destroy(error));
  // A client that goes away mid-body may only close the socket: finish with an error, not a hang.
  body.on('close', () => {
    if (!body.readableEnded) parser.destroy(new Error('the request body ended early'));
  });
  body.pipe(parser);
  try {
    await finished;
    await Promise.all(uploads);
  } catch (error) {
    await Promise.allSettled(uploads);
    await Promise.allSettled(planned.map((key) => storage.remove(key)));
    throw error;
  }
  // Parts cut off over the limit must not leave objects behind.
  const kept = new Set(files.map((f) => f.objectKey));
  await Promise.allSettled(planned.filter((key) => !kept.has(key)).map((key) => storage.remove(key)));
  return { fields, files };
}

/** Removes every stored object of a multipart result (when the request is refused after all). */
export async function discardFiles(storage: Storage, result: MultipartResult, alsoKeys: string[] = []): Promise<void> {
  const keys = [...result.files.map((f) => f.objectKey).filter((k): k is string => !!k), ...alsoKeys];
  await Promise.allSettled(keys.map((k) => storage.remove(k)));
}

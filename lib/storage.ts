// S3 access through the minio client. Any S3-compatible server works.
import { createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as Minio from 'minio';
import { streamParts } from './stream-parts.js';

export interface Storage {
  bucket: string;
  /** Streams a body of unknown length in 8 MiB parts, up to 3 in flight: memory stays flat whatever the size. */
  putStream(key: string, body: Readable, contentType: string): Promise<void>;
  putBuffer(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes from `start` (default 0) to the end. */
  getStream(key: string, start?: number): Promise<Readable>;
  /** Up to `length` bytes from the start of the object. */
  getHead(key: string, length: number): Promise<Buffer>;
  getBuffer(key: string): Promise<Buffer>;
  /** The object into the file at `path` (whole or not at all); false when there is no such object. */
  downloadTo(key: string, path: string): Promise<boolean>;
  stat(key: string): Promise<{ size: number } | null>;
  remove(key: string): Promise<void>;
  removePrefix(prefix: string): Promise<void>;
  ensureBucket(): Promise<void>;
  ping(): Promise<void>;
}

export interface StorageConfig {
  endpoint: string;
  region: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
}

const PART_SIZE = 8 * 1024 * 1024;
// Parts sent at once: one part at a time leaves the link idle while the server stores each part
// (the minio client's own putObject works that way); three keep it busy at 32 MiB of buffers.
const PARTS_IN_FLIGHT = 3;

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'NotFound' || code === 'NoSuchKey';
}

export function createStorage(config: StorageConfig): Storage {
  const url = new URL(config.endpoint);
  const client = new Minio.Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
    useSSL: url.protocol === 'https:',
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    region: config.region,
    pathStyle: true,
    partSize: PART_SIZE,
  });
  const { bucket } = config;
  return {
    bucket,
    async putStream(key, body, contentType) {
      const headers = { 'Content-Type': contentType };
      const spare: Buffer[] = [];
      const reader = streamParts(body, PART_SIZE, spare)[Symbol.asyncIterator]();
      const first = await reader.next();
      const firstPart = first.done ? Buffer.alloc(0) : first.value;
      if (firstPart.length < PART_SIZE) {
        await client.putObject(bucket, key, firstPart, firstPart.length, headers);
        return;
      }
      const uploadId = await client.initiateNewMultipartUpload(bucket, key, headers);
      const etags: { part: number; etag: string }[] = [];
      const inFlight = new Set<Promise<void>>();
      let failure: unknown;
      const send = (part: number, payload: Buffer) => {
        const sent: Promise<void> = client
          .uploadPart({ bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: { 'Content-Length': payload.length } }, payload)
          .then(({ etag }) => {
            etags.push({ part, etag });
            if (payload.length === PART_SIZE) spare.push(payload);
          })
          .catch((error: unknown) => void (failure ??= error))
          .finally(() => inFlight.delete(sent));
        inFlight.add(sent);
      };
      try {
        let part = 1;
        send(part, firstPart);
        for (let next = await reader.next(); !next.done && failure === undefined; next = await reader.next()) {
          send(++part, next.value);
          while (inFlight.size >= PARTS_IN_FLIGHT) await Promise.race(inFlight);
        }
        await Promise.all(inFlight);
        if (failure !== undefined) throw failure;
        etags.sort((a, b) => a.part - b.part);
        await client.completeMultipartUpload(bucket, key, uploadId, etags);
      } catch (error) {
        await reader.return?.(undefined);
        await Promise.allSettled(inFlight);
        await client.abortMultipartUpload(bucket, key, uploadId).catch(() => {});
        throw error;
      }
    },
    async putBuffer(key, body, contentType) {
      await client.putObject(bucket, key, body, body.length, { 'Content-Type': contentType });
    },
    getStream: (key, start = 0) => (start > 0 ? client.getPartialObject(bucket, key, start) : client.getObject(bucket, key)),
    async getHead(key, length) {
      const chunks: Buffer[] = [];
      for await (const chunk of await client.getPartialObject(bucket, key, 0, length)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async getBuffer(key) {
      const chunks: Buffer[] = [];
      for await (const chunk of await client.getObject(bucket, key)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    // One GET (the minio client's fGetObject asks for the object's etag first, a request more).
    async downloadTo(key, path) {
      let body: Readable;
      try {
        body = await client.getObject(bucket, key);
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
      const partial = `${path}.part`;
      await pipeline(body, createWriteStream(partial));
      await rename(partial, path);
      return true;
    },
    async stat(key) {
      try {
        const info = await client.statObject(bucket, key);
        return { size: info.size };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    remove: (key) => client.removeObject(bucket, key),
    async removePrefix(prefix) {
      const keys: string[] = [];
      for await (const item of client.listObjectsV2(bucket, prefix, true)) {
        if (item.name) keys.push(item.name);
      }
      if (keys.length) await client.removeObjects(bucket, keys);
    },
    async ensureBucket() {
      if (!(await client.bucketExists(bucket))) await client.makeBucket(bucket, config.region);
    },
    async ping() {
      await client.bucketExists(bucket);
    },
  };
}

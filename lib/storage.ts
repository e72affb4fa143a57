// S3 access through the minio client. Any S3-compatible server works.
import type { Readable } from 'node:stream';
import * as Minio from 'minio';

export interface Storage {
  bucket: string;
  /** Streams a body of unknown length in 8 MiB parts: memory stays flat (the default 64 MiB parts buffer ~500 MB). */
  putStream(key: string, body: Readable, contentType: string): Promise<void>;
  putBuffer(key: string, body: Buffer, contentType: string): Promise<void>;
  getStream(key: string): Promise<Readable>;
  getBuffer(key: string): Promise<Buffer>;
  downloadTo(key: string, path: string): Promise<void>;
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
      await client.putObject(bucket, key, body, undefined, { 'Content-Type': contentType });
    },
    async putBuffer(key, body, contentType) {
      await client.putObject(bucket, key, body, body.length, { 'Content-Type': contentType });
    },
    getStream: (key) => client.getObject(bucket, key),
    async getBuffer(key) {
      const chunks: Buffer[] = [];
      for await (const chunk of await client.getObject(bucket, key)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    downloadTo: (key, path) => client.fGetObject(bucket, key, path),
    async stat(key) {
      try {
        const info = await client.statObject(bucket, key);
        return { size: info.size };
      } catch (error) {
        if ((error as { code?: string }).code === 'NotFound' || (error as { code?: string }).code === 'NoSuchKey') return null;
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

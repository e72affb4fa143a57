// Random access to the parts of a ZIP file (an XLSX workbook) through its central directory:
// any part can be streamed on its own, inflating as it goes, without reading the parts before
// it or holding the archive in memory.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  encrypted: boolean;
}

/** Raised for an archive this reader cannot make sense of; the message is short and plain. */
export class ZipFormatError extends Error {
  override name = 'ZipFormatError';
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const END_RECORD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATED = 8;
const ZIP64_MARK = 0xffffffff;

export class ZipArchive {
  private constructor(
    readonly path: string,
    readonly entries: ReadonlyMap<string, ZipEntry>,
  ) {}

  static async open(path: string): Promise<ZipArchive> {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      const tailLength = Math.min(size, END_RECORD_SIZE + MAX_COMMENT);
      const tail = Buffer.alloc(tailLength);
      await handle.read(tail, 0, tailLength, size - tailLength);
      const end = findEndRecord(tail);
      if (end < 0) throw new ZipFormatError('it is not a valid XLSX (zip) file');
      const count = tail.readUInt16LE(end + 10);
      const directorySize = tail.readUInt32LE(end + 12);
      const directoryOffset = tail.readUInt32LE(end + 16);
      if (directoryOffset === ZIP64_MARK || directorySize === ZIP64_MARK) {
        throw new ZipFormatError('ZIP64 archives (over 4 GB) are not supported');
      }
      if (directoryOffset + directorySize > size) throw new ZipFormatError('the file is truncated');
      const directory = Buffer.alloc(directorySize);
      await handle.read(directory, 0, directorySize, directoryOffset);
      return new ZipArchive(path, parseDirectory(directory, count));
    } finally {
      await handle.close();
    }
  }

  /** Finds a part by name, ignoring case and a leading slash, as OOXML part names allow. */
  find(name: string): ZipEntry | undefined {
    const wanted = name.replace(/^\/+/, '');
    return this.entries.get(wanted) ?? [...this.entries.values()].find((e) => e.name.toLowerCase() === wanted.toLowerCase());
  }

  /** The part's uncompressed bytes as a stream. The caller destroys it to stop early. */
  async stream(entry: ZipEntry, highWaterMark = 1024 * 1024): Promise<Readable> {
    if (entry.encrypted) throw new ZipFormatError('it is encrypted');
    if (entry.method !== STORED && entry.method !== DEFLATED) {
      throw new ZipFormatError(`it uses an unsupported compression method (${entry.method})`);
    }
    const start = await this.dataOffset(entry);
    if (entry.compressedSize === 0) return Readable.from([]);
    // createReadStream's end is inclusive.
    const raw = createReadStream(this.path, { start, end: start + entry.compressedSize - 1, highWaterMark });
    if (entry.method === STORED) return raw;
    const inflate = createInflateRaw({ chunkSize: 256 * 1024 });
    // pipeline destroys the file stream too when the inflater is destroyed or fails.
    pipeline(raw, inflate, () => undefined);
    return inflate;
  }

  // The local header repeats the name and may carry a different extra field than the central
  // directory, so the data's start is read from it rather than computed.
  private async dataOffset(entry: ZipEntry): Promise<number> {
    const handle = await open(this.path, 'r');
    try {
      const header = Buffer.alloc(30);
      const { bytesRead } = await handle.read(header, 0, 30, entry.localHeaderOffset);
      if (bytesRead < 30 || header.readUInt32LE(0) !== LOCAL_HEADER) {
        throw new ZipFormatError(`the part ${entry.name} is damaged`);
      }
      return entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    } finally {
      await handle.close();
    }
  }
}

function findEndRecord(tail: Buffer): number {
  for (let at = tail.length - END_RECORD_SIZE; at >= 0; at--) {
    if (tail.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  return -1;
}

function parseDirectory(directory: Buffer, count: number): Map<string, ZipEntry> {
  const entries = new Map<string, ZipEntry>();
  let at = 0;
  for (let k = 0; k < count; k++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== DIRECTORY_ENTRY) {
      throw new ZipFormatError('its table of contents is damaged');
    }
    const flags = directory.readUInt16LE(at + 8);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
    entries.set(name, {
      name,
      method: directory.readUInt16LE(at + 10),
      compressedSize: directory.readUInt32LE(at + 20),
      uncompressedSize: directory.readUInt32LE(at + 24),
      localHeaderOffset: directory.readUInt32LE(at + 42),
      encrypted: (flags & 1) !== 0,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

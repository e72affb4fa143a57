// Works out how a text file's bytes become characters, from its first bytes only, so that a
// 1 GB CSV is never read whole just to pick an encoding.
import { isAscii } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import iconv from 'iconv-lite';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DetectedEncoding {
  encoding: TextEncoding;
  /** Bytes of byte order mark to skip before decoding. */
  bomLength: number;
}

/** How many leading bytes are inspected (also what a caller should pass to detectEncoding). */
export const SNIFF_BYTES = 64 * 1024;

/**
 * Picks the encoding from a file's first bytes. `complete` says whether `head` is the whole file:
 * if not, a multi-byte character cut off at the end of `head` is not held against UTF-8.
 */
export function detectEncoding(head: Uint8Array, complete: boolean): DetectedEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  // UTF-16 without a BOM is otherwise valid UTF-8 (NUL is ASCII), so it is looked for first.
  const utf16 = guessUtf16WithoutBom(head);
  if (utf16) return { encoding: utf16, bomLength: 0 };
  return { encoding: isValidUtf8(head, complete) ? 'utf-8' : 'windows-1252', bomLength: 0 };
}

function isValidUtf8(bytes: Uint8Array, complete: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

// Text in UTF-16 is mostly ASCII-range characters, whose high byte is zero: NULs then sit on one
// side (odd offsets for little endian) and almost never on the other.
function guessUtf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const pairs = Math.floor(Math.min(bytes.length, 4096) / 2);
  if (pairs < 2) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return undefined;
}

/** Decodes a byte stream chunk by chunk, carrying characters split across chunk edges. */
export interface ChunkDecoder {
  write(bytes: Buffer): string;
  end(): string;
}

export function createChunkDecoder(encoding: TextEncoding): ChunkDecoder {
  switch (encoding) {
    case 'utf-8':
      return new Utf8ChunkDecoder();
    case 'utf-16le': {
      const decoder = new StringDecoder('utf16le');
      return { write: (bytes) => decoder.write(bytes), end: () => decoder.end() };
    }
    case 'utf-16be':
    case 'windows-1252': {
      const decoder = iconv.getDecoder(encoding, { stripBOM: false });
      return { write: (bytes) => decoder.write(bytes), end: () => decoder.end() ?? '' };
    }
  }
}

// Decoding is a third of a large import's time, and most CSV chunks are pure ASCII, which a
// latin1 copy decodes several times faster than any UTF-8 decoder. Other chunks go through a
// streaming TextDecoder, which carries a character split across chunks to the next one.
class Utf8ChunkDecoder implements ChunkDecoder {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The decoder holds the first bytes of a character cut off at the end of the last chunk. */
  private carrying = false;

  write(bytes: Buffer): string {
    if (!this.carrying && isAscii(bytes)) return bytes.toString('latin1');
    const text = this.decoder.decode(bytes, { stream: true });
    this.carrying = endsInsideCharacter(bytes);
    return text;
  }

  end(): string {
    this.carrying = false;
    return this.decoder.decode();
  }
}

/** Whether the last bytes start a UTF-8 sequence that needs more bytes than follow it. */
function endsInsideCharacter(bytes: Uint8Array): boolean {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back;
  }
  return false;
}

import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Opaque id with a readable prefix (`ext_…`): 120 random bits in Crockford base32. */
export function newId(prefix: 'ws' | 'key' | 'tpl' | 'ext' | 'flow' | 'run' | 'step' | 'whk' | 'dlv' | 'evt' | 'file'): string {
  const bytes = randomBytes(15);
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `${prefix}_${out}`;
}

export function unixSeconds(date: Date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

// Keeps webhook receivers off private networks: a URL whose host is, or resolves to, a loopback,
// private, link-local or otherwise non-public address is refused (unless the deployment allows
// it, as tests do). Checked when a webhook is configured and again at connect time, on the
// address actually connected to, so a DNS answer that changes in between cannot slip through.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

export class AddressError extends Error {
  override name = 'AddressError';
}

type Range = [base: bigint, prefix: number];

function ipv4ToBigInt(ip: string): bigint | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function ipv6ToBigInt(input: string): bigint | null {
  let ip = input.replace(/^\[|\]$/g, '');
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) becomes two hextets.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (dotted) {
    const v4 = ipv4ToBigInt(dotted[1]!);
    if (v4 === null) return null;
    ip = `${ip.slice(0, -dotted[1]!.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}

const v4 = (cidr: string): Range => {
  const [base, prefix] = cidr.split('/');
  return [ipv4ToBigInt(base!)!, Number(prefix)];
};
const v6 = (cidr: string): Range => {
  const [base, prefix] = cidr.split('/');
  return [ipv6ToBigInt(base!)!, Number(prefix)];
};

/** IPv4 ranges that are not the public internet (RFC 6890 and friends). */
const BLOCKED_V4: Range[] = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12',
  '192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24',
  '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4',
].map(v4);

const BLOCKED_V6: Range[] = [
  '::/128', '::1/128', '100::/64', '2001:db8::/32', 'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8',
].map(v6);

/** IPv6 ranges that carry an IPv4 address in their low 32 bits: judged by that address. */
const EMBEDS_V4: Range[] = ['::ffff:0:0/96', '::/96', '64:ff9b::/96', '64:ff9b:1::/48'].map(v6);

function inRange(value: bigint, [base, prefix]: Range, bits: number): boolean {
  const shift = BigInt(bits - prefix);
  return value >> shift === base >> shift;
}

function blockedV4(value: bigint): boolean {
  return BLOCKED_V4.some((r) => inRange(value, r, 32));
}

/** True for loopback, private, link-local, CGNAT, multicast, documentation and reserved addresses. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (family === 4) return blockedV4(ipv4ToBigInt(ip)!);
  const value = ipv6ToBigInt(ip);
  if (value === null) return true; // not an address we understand: refuse
  if (EMBEDS_V4.some((r) => inRange(value, r, 128))) return blockedV4(value & 0xffffffffn);
  // 6to4 (2002::/16) carries the IPv4 address in bits 16..48.
  if (inRange(value, v6('2002::/16'), 128)) return blockedV4((value >> 80n) & 0xffffffffn);
  return BLOCKED_V6.some((r) => inRange(value, r, 128));
}

/** Parses a receiver URL: http or https, a host, no more than 2048 characters. */
export function parseReceiverUrl(raw: string): URL {
  if (raw.length > 2048) throw new AddressError('The webhook URL is longer than 2048 characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AddressError(`'${raw}' is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AddressError('The webhook URL must use http or https');
  if (!url.hostname) throw new AddressError('The webhook URL has no host');
  return url;
}

export type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

export const lookupAll: LookupAll = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '');
}

/** Refuses a URL whose host is, or resolves to, any non-public address. */
export async function assertPublicUrl(raw: string, lookup: LookupAll = lookupAll): Promise<URL> {
  const url = parseReceiverUrl(raw);
  const host = bareHost(url.hostname);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host)).map((a) => a.address);
    } catch (error) {
      throw new AddressError(`The webhook host '${host}' could not be resolved: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (addresses.length === 0) throw new AddressError(`The webhook host '${host}' has no addresses`);
  }
  const refused = addresses.find(isPrivateAddress);
  if (refused) throw new AddressError(`The webhook host '${host}' resolves to the private or loopback address ${refused}; receivers must be on public addresses`);
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request/net.connect that resolves like dns.lookup but fails when an answer
 * is a non-public address, so the check applies to the address the socket connects to.
 */
export function guardedLookup(lookup: LookupAll = lookupAll) {
  return (hostname: string, options: { all?: boolean; family?: number | string } | number, callback: LookupCallback): void => {
    const wantAll = typeof options === 'object' && options.all === true;
    const family = typeof options === 'object' ? Number(options.family ?? 0) : Number(options);
    lookup(hostname)
      .then((found) => {
        const addresses = found.filter((a) => !family || a.family === family);
        const refused = addresses.find((a) => isPrivateAddress(a.address));
        if (refused) {
          const error: NodeJS.ErrnoException = new AddressError(`The webhook host '${hostname}' resolves to the private or loopback address ${refused.address}`);
          error.code = 'EADDRREFUSED_PRIVATE';
          callback(error, '');
          return;
        }
        if (addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`The webhook host '${hostname}' has no addresses`);
          error.code = 'ENOTFOUND';
          callback(error, '');
          return;
        }
        if (wantAll) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, ''));
  };
}

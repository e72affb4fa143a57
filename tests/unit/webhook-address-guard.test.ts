import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AddressError, assertPublicUrl, guardedLookup, isPrivateAddress, parseReceiverUrl } from '../../activities/webhooks/address-guard.js';

const fakeDns = (table: Record<string, string[]>) => async (host: string) => {
  const list = table[host];
  if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('webhook address guard', () => {
  it('classifies private, loopback and reserved addresses', () => {
    const blocked = [
      '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
      '224.0.0.1', '255.255.255.255', '198.18.0.1', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1',
      '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2002:c0a8:0101::1', '2001:db8::1', '[::1]', 'fe80::1%eth0',
    ];
    const open = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:0808:0808::1'];
    for (const ip of blocked) assert.equal(isPrivateAddress(ip), true, ip);
    for (const ip of open) assert.equal(isPrivateAddress(ip), false, ip);
  });

  it('accepts only http(s) URLs with a host', () => {
    assert.equal(parseReceiverUrl('https://example.com/x').hostname, 'example.com');
    assert.throws(() => parseReceiverUrl('ftp://example.com/'), AddressError);
    assert.throws(() => parseReceiverUrl('not a url'), AddressError);
    assert.throws(() => parseReceiverUrl(`https://example.com/${'a'.repeat(2050)}`), AddressError);
  });

  it('refuses hosts that are or resolve to private addresses (any of their addresses)', async () => {
    const dns = fakeDns({ 'hooks.example.com': ['93.184.216.34'], 'sneaky.example.com': ['93.184.216.34', '10.0.0.5'], 'local.example.com': ['127.0.0.1'] });
    assert.equal((await assertPublicUrl('https://hooks.example.com/in', dns)).hostname, 'hooks.example.com');
    await assert.rejects(assertPublicUrl('http://127.0.0.1:9000/', dns), /private or loopback address 127\.0\.0\.1/);
    await assert.rejects(assertPublicUrl('http://[::1]/', dns), AddressError);
    await assert.rejects(assertPublicUrl('https://sneaky.example.com/', dns), /10\.0\.0\.5/);
    await assert.rejects(assertPublicUrl('https://local.example.com/', dns), AddressError);
    await assert.rejects(assertPublicUrl('https://nowhere.example.com/', dns), /could not be resolved/);
  });

  it('fails the connect-time lookup for private answers, in both callback forms', async () => {
    const lookup = guardedLookup(fakeDns({ 'good.example.com': ['93.184.216.34'], 'bad.example.com': ['192.168.0.10'] }));
    const one = await new Promise<unknown[]>((resolve) => lookup('good.example.com', {}, (...args) => resolve(args)));
    assert.deepEqual(one, [null, '93.184.216.34', 4]);
    const all = await new Promise<unknown[]>((resolve) => lookup('good.example.com', { all: true }, (...args) => resolve(args)));
    assert.deepEqual(all, [null, [{ address: '93.184.216.34', family: 4 }]]);
    const refused = await new Promise<unknown[]>((resolve) => lookup('bad.example.com', { all: true }, (...args) => resolve(args)));
    assert.match(String(refused[0]), /private or loopback/);
  });
});

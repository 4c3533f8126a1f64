import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNonPublicAddress } from './non-public-addresses.ts';
import { outboundFetch } from './outbound-fetch.ts';

/**
 * The IPv4 ranges that are not public (IANA special-purpose registry), written here apart from
 * the guard's own list: the tests generate addresses from them and from outside them.
 */
const nonPublicRanges: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata at 169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const toNumber = (ipv4: string) => ipv4.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
const toText = (value: number) => [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
const inRange = (value: number, [network, prefix]: [string, number]) =>
  prefix === 0 || value >>> (32 - prefix) === toNumber(network) >>> (32 - prefix);

const nonPublicIpv4 = fc
  .constantFrom(...nonPublicRanges)
  .chain(([network, prefix]) =>
    fc.integer({ min: 0, max: 2 ** (32 - prefix) - 1 }).map((offset) => toText(toNumber(network) + offset)),
  );
const publicIpv4 = fc
  .integer({ min: 0, max: 2 ** 32 - 1 })
  .filter((value) => !nonPublicRanges.some((range) => inRange(value, range)))
  .map(toText);

const hex = (value: number) => value.toString(16);
/** The two 16-bit groups of an IPv4 address, as IPv6 writes them. */
const groupsOf = (ipv4: string, invert = false) => {
  const value = (toNumber(ipv4) ^ (invert ? 0xffffffff : 0)) >>> 0;
  return `${hex(value >>> 16)}:${hex(value & 0xffff)}`;
};

/** Every IPv6 form that carries an IPv4 address, each as a function of that address. */
const embeddings: Record<string, (ipv4: string) => string[]> = {
  'IPv4-mapped ::ffff:0:0/96': (ipv4) => [
    `::ffff:${ipv4}`,
    `::ffff:${groupsOf(ipv4)}`,
    `0:0:0:0:0:ffff:${ipv4}`,
  ],
  'IPv4-compatible ::/96': (ipv4) => [`::${ipv4}`, `::${groupsOf(ipv4)}`],
  'IPv4-translated ::ffff:0:0:0/96': (ipv4) => [`::ffff:0:${ipv4}`, `0:0:0:0:ffff:0:${groupsOf(ipv4)}`],
  'NAT64 64:ff9b::/96': (ipv4) => [`64:ff9b::${ipv4}`, `64:ff9b::${groupsOf(ipv4)}`],
  '6to4 2002::/16': (ipv4) => [`2002:${groupsOf(ipv4)}::`, `2002:${groupsOf(ipv4)}:1:0:0:0:1`],
  // A public Teredo server (Microsoft's 65.54.227.120 as once deployed) and the client inverted.
  'Teredo 2001::/32': (ipv4) => [`2001:0:4136:e378:8000:63bf:${groupsOf(ipv4, true)}`],
};

/** The spellings an address may reach the guard in: as written, upper case, as a URL host. */
function spellings(address: string): string[] {
  const fromUrl = new URL(`http://[${address}]/`).hostname.replace(/^\[|\]$/g, '');
  return [address, address.toUpperCase(), fromUrl];
}

describe('non-public addresses (the SSRF guard)', () => {
  it('refuses every IPv6 form that embeds a private, loopback, link-local or reserved IPv4 address', () => {
    fc.assert(
      fc.property(nonPublicIpv4, fc.constantFrom(...Object.keys(embeddings)), (ipv4, form) => {
        expect(isNonPublicAddress(ipv4), ipv4).toBe(true);
        for (const address of embeddings[form]?.(ipv4) ?? [])
          for (const spelling of spellings(address))
            expect(isNonPublicAddress(spelling), `${form}: ${spelling} (${ipv4})`).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('decides an embedded public IPv4 address as that address: allowed in every form', () => {
    fc.assert(
      fc.property(publicIpv4, fc.constantFrom(...Object.keys(embeddings)), (ipv4, form) => {
        expect(isNonPublicAddress(ipv4), ipv4).toBe(false);
        for (const address of embeddings[form]?.(ipv4) ?? [])
          for (const spelling of spellings(address))
            expect(isNonPublicAddress(spelling), `${form}: ${spelling} (${ipv4})`).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses a Teredo address whose server is not public, whatever the client', () => {
    fc.assert(
      fc.property(nonPublicIpv4, fc.oneof(publicIpv4, nonPublicIpv4), (server, client) => {
        const address = `2001:0:${groupsOf(server)}:0:0:${groupsOf(client, true)}`;
        expect(isNonPublicAddress(address), address).toBe(true);
      }),
    );
  });

  it('refuses the local-use NAT64 prefix 64:ff9b:1::/48 whole, where the IPv4 position is the operator’s', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 5, maxLength: 5 }), (rest) => {
        const address = `64:ff9b:1:${rest.map(hex).join(':')}`;
        expect(isNonPublicAddress(address), address).toBe(true);
      }),
    );
  });

  it('still tells public IPv6 from private, loopback, link-local and documentation IPv6', () => {
    for (const address of ['::1', '::', 'fe80::1', 'fe80::1%eth0', 'fd12:3456::1', 'ff02::1', '2001:db8::1'])
      expect(isNonPublicAddress(address), address).toBe(true);
    for (const address of ['2606:4700::1111', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888'])
      expect(isNonPublicAddress(address), address).toBe(false);
    expect(isNonPublicAddress('not an address')).toBe(true);
  });

  it('refuses a 6to4 literal for the loopback before connecting', async () => {
    await expect(
      outboundFetch(
        { url: 'http://[2002:7f00:1::]/', method: 'GET' },
        { allowPrivateNetwork: false, timeoutMs: 1_000, maxBytes: 1_000 },
      ),
    ).rejects.toThrow('2002:7f00:1:: is a private, loopback or link-local address');
  });
});

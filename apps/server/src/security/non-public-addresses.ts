import { BlockList, isIP } from 'node:net';

/**
 * Which IP addresses are not on the public internet (private, loopback, link-local, reserved...),
 * for the guard against server-side request forgery.
 *
 * An IPv6 address that carries an IPv4 address inside it reaches that IPv4 host (through a
 * translator, a tunnel or the local stack), so it is decided by the IPv4 address it embeds:
 * refused exactly when that IPv4 address is, allowed exactly when it is. The embedding forms:
 * IPv4-mapped `::ffff:0:0/96`, IPv4-compatible `::/96`, IPv4-translated `::ffff:0:0:0/96`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16` (bits 16–47) and Teredo `2001::/32` (the client's
 * address, bits 96–127 inverted, and the Teredo server's, bits 32–63: refused when either is).
 * The local-use NAT64 prefix `64:ff9b:1::/48` places the IPv4 address where the operator's prefix
 * length says, so it cannot be read from the address; IANA lists it as not globally reachable,
 * and it is refused whole.
 */

const nonPublicIpv4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublicIpv4.addSubnet(network, prefix, 'ipv4');
}

const nonPublicIpv6 = new BlockList();
for (const [network, prefix] of [
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:2::', 48],
  ['2001:10::', 28],
  ['2001:20::', 28],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  nonPublicIpv6.addSubnet(network, prefix, 'ipv6');
}

/** Whether an address is private, loopback, link-local or otherwise not on the public internet. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return nonPublicIpv4.check(address, 'ipv4');
  if (family !== 6) return true;
  const bytes = ipv6Bytes(address);
  if (!bytes) return true;
  const embedded = embeddedIpv4Addresses(bytes);
  if (embedded.length > 0) return embedded.some((ipv4) => nonPublicIpv4.check(ipv4, 'ipv4'));
  return nonPublicIpv6.check(ipv6Text(bytes), 'ipv6');
}

/**
 * The IPv4 addresses an IPv6 address embeds (see the module comment), or none. `::` and `::1`
 * embed 0.0.0.0 and 0.0.0.1, both refused.
 */
export function embeddedIpv4Addresses(bytes: Uint8Array): string[] {
  const zero = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const ipv4At = (offset: number, invert = false) =>
    Array.from(bytes.slice(offset, offset + 4), (byte) => (invert ? byte ^ 0xff : byte)).join('.');
  const group = (index: number) => ((bytes[index * 2] ?? 0) << 8) | (bytes[index * 2 + 1] ?? 0);
  // ::/96 (compatible), ::ffff:0:0/96 (mapped), ::ffff:0:0:0/96 (translated)
  if (zero(0, 10) && (group(5) === 0 || group(5) === 0xffff)) return [ipv4At(12)];
  if (zero(0, 8) && group(4) === 0xffff && group(5) === 0) return [ipv4At(12)];
  // 64:ff9b::/96, the well-known NAT64 prefix
  if (group(0) === 0x64 && group(1) === 0xff9b && zero(4, 12)) return [ipv4At(12)];
  // 2002::/16, 6to4
  if (group(0) === 0x2002) return [ipv4At(2)];
  // 2001::/32, Teredo: the server, then the client (obfuscated by inverting every bit)
  if (group(0) === 0x2001 && group(1) === 0) return [ipv4At(4), ipv4At(12, true)];
  return [];
}

/** The 16 bytes of an IPv6 address (any spelling: `::`, an IPv4 tail, a zone), or null. */
export function ipv6Bytes(address: string): Uint8Array | null {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(text) !== 6) return null;
  const groups: number[] = [];
  const halves = text.split('::');
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const values: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const octets = piece.split('.').map(Number);
        values.push(((octets[0] ?? 0) << 8) | (octets[1] ?? 0), ((octets[2] ?? 0) << 8) | (octets[3] ?? 0));
      } else {
        values.push(Number.parseInt(piece, 16));
      }
    }
    return values;
  };
  const head = parse(halves[0] ?? '');
  const tail = halves.length > 1 ? parse(halves[1] ?? '') : [];
  if (!head || !tail) return null;
  groups.push(...head, ...Array.from({ length: 8 - head.length - tail.length }, () => 0), ...tail);
  const bytes = new Uint8Array(16);
  groups.forEach((value, index) => {
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

function ipv6Text(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let index = 0; index < 16; index += 2)
    groups.push((((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0)).toString(16));
  return groups.join(':');
}

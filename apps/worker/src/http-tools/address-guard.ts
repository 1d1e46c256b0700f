import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// HTTP tools call URLs tenants typed in. Without a guard, a tool could reach the worker's own
// network: loopback services, private ranges, link-local, and the cloud metadata endpoint
// (169.254.169.254, fd00:ec2::254). Every address a host resolves to is checked, and the request
// then connects to the checked address, so a second DNS answer cannot swap it (rebinding).

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local (includes fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** An IPv4 address carried inside an IPv6 one (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::/96). */
function embeddedIpv4(address: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** True for an address no HTTP tool may reach unless its host is allow-listed. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    return v4 !== undefined ? blocked.check(v4, 'ipv4') : blocked.check(address, 'ipv6');
  }
  return true;
}

export class ForbiddenAddressError extends Error {
  readonly code = 'http-tool-address-forbidden';
  constructor(host: string, address: string) {
    super(
      `refused to call ${host}` +
        (address !== host ? ` (${address})` : '') +
        ': loopback, private, link-local and metadata addresses are not reachable from HTTP tools. ' +
        'Use a public URL, or ask an operator to allow-list this host.',
    );
    this.name = 'ForbiddenAddressError';
  }
}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves `host` and returns an address to connect to; throws ForbiddenAddressError when any
 * address it resolves to is forbidden (an attacker may control which one a client picks), unless
 * the host is allow-listed.
 */
export async function resolveAllowedTarget(host: string, allowedHosts: ReadonlySet<string>): Promise<ResolvedTarget> {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  const literal = isIP(bare);
  const addresses = literal
    ? [{ address: bare, family: literal as 4 | 6 }]
    : (await lookup(bare, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  if (addresses.length === 0) throw new ForbiddenAddressError(host, '(no address)');
  if (!allowedHosts.has(bare)) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) throw new ForbiddenAddressError(host, bad.address);
  }
  return addresses[0];
}

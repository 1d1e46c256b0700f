import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

// HTTP tools, webhooks and model providers call URLs tenants typed in. Without a guard, a call could reach the
// worker's own network: loopback services, private ranges, link-local, and the cloud metadata
// endpoint (169.254.169.254, fd00:ec2::254). Only global unicast addresses are reachable.
//
// The check runs inside the socket's own DNS lookup (guardedLookup), so the address that was
// checked is the address the socket connects to: a name that answers "public" to a first query
// and "private" to the next (DNS rebinding) never gets a second query to answer.

/** True for an address no HTTP tool may reach unless its host is allow-listed. */
export function isForbiddenAddress(address: string): boolean {
  if (!isIP(address)) return true;
  // process() turns IPv4-mapped IPv6 (::ffff:7f00:1) into the IPv4 address it carries.
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range === 'unicast') return false;
  const embedded = ip.kind() === 'ipv6' ? embeddedIpv4(ip as ipaddr.IPv6, range) : undefined;
  return embedded === undefined || embedded.range() !== 'unicast';
}

/** The IPv4 address a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address routes to. */
function embeddedIpv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const p = ip.parts;
  if (range === 'rfc6052' && p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) return ipv4Of(p[6], p[7]);
  if (range === '6to4') return ipv4Of(p[1], p[2]);
  return undefined; // Teredo and the rest: no address we can vouch for
}

const ipv4Of = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);

export class ForbiddenAddressError extends Error {
  // The code predates model providers and webhooks using the guard; clients match on it.
  readonly code = 'http-tool-address-forbidden';
  /** Read by the model providers (policyRefusal): a refusal by rule, which no retry changes. */
  readonly refusedByPolicy = true;
  /** `caller` names what was refused in the message: HTTP tools, webhooks, model providers. */
  constructor(host: string, address: string, caller = 'HTTP tools') {
    super(
      `refused to call ${host}` +
        (address !== host ? ` (${address})` : '') +
        `: loopback, private, link-local and metadata addresses are not reachable from ${caller}. ` +
        'Use a public URL, or ask an operator to allow-list this host.',
    );
    this.name = 'ForbiddenAddressError';
  }
}

/** `[::1]` (as URL.hostname writes it) → `::1`; names compare case-insensitively. */
export function bareHost(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * Throws ForbiddenAddressError for an IP-literal host that is forbidden and not allow-listed.
 * Sockets connect to literals without a lookup, so guardedLookup never sees them.
 */
export function assertAllowedLiteral(host: string, allowedHosts: ReadonlySet<string>, caller?: string): void {
  const bare = bareHost(host);
  if (isIP(bare) && !allowedHosts.has(bare) && isForbiddenAddress(bare)) throw new ForbiddenAddressError(host, bare, caller);
}

/** The resolver guardedLookup asks: dns.lookup with every address; tests pass their own. */
export type Resolve = (host: string, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

export const systemResolve: Resolve = (host, cb) => dnsLookup(host, { all: true, verbatim: true }, cb);

/**
 * A `lookup` for http.request/net.connect that resolves the host once and fails the connection
 * with ForbiddenAddressError when ANY address it resolves to is forbidden (the client may pick
 * any of them), unless the host is allow-listed.
 */
export function guardedLookup(allowedHosts: ReadonlySet<string>, resolve: Resolve = systemResolve, caller?: string): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number | string }, callback: (...args: unknown[]) => void) => {
    const host = bareHost(hostname);
    resolve(host, (err, found) => {
      if (err) return callback(err);
      const family = options?.family === 6 || options?.family === 'IPv6' ? 6 : options?.family === 4 || options?.family === 'IPv4' ? 4 : 0;
      const addresses = family ? found.filter((a) => a.family === family) : found;
      if (addresses.length === 0) return callback(new ForbiddenAddressError(hostname, '(no address)', caller));
      if (!allowedHosts.has(host)) {
        const bad = addresses.find((a) => isForbiddenAddress(a.address));
        if (bad) return callback(new ForbiddenAddressError(hostname, bad.address, caller));
      }
      if (options?.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  }) as unknown as LookupFunction;
}

/** How long assertAllowedHost waits for DNS before letting the name through to the connection's check. */
export const HOST_CHECK_DNS_TIMEOUT_MS = 2_000;

/**
 * The check a save or a publish makes before anything connects: an IP literal as above, and a
 * name resolved once, refused when any address it has now is forbidden. A name that does not
 * resolve (or not within `timeoutMs`) passes: the connection's own check (guardedLookup) still
 * holds when it is called, and a request should not wait on a slow resolver.
 */
export async function assertAllowedHost(
  host: string,
  allowedHosts: ReadonlySet<string>,
  options: { resolve?: Resolve; caller?: string; timeoutMs?: number } = {},
): Promise<void> {
  const bare = bareHost(host);
  if (allowedHosts.has(bare)) return;
  if (isIP(bare)) return assertAllowedLiteral(bare, allowedHosts, options.caller);
  const found = await new Promise<LookupAddress[]>((done) => {
    const timer = setTimeout(() => done([]), options.timeoutMs ?? HOST_CHECK_DNS_TIMEOUT_MS);
    try {
      (options.resolve ?? systemResolve)(bare, (err, addresses) => {
        clearTimeout(timer);
        done(err ? [] : addresses);
      });
    } catch {
      // A name the resolver will not even take (too long, odd characters) cannot be connected to either.
      clearTimeout(timer);
      done([]);
    }
  });
  const bad = found.find((a) => isForbiddenAddress(a.address));
  if (bad) throw new ForbiddenAddressError(host, bad.address, options.caller);
}

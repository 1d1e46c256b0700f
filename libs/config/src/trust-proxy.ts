import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/** proxy-addr's names for address ranges, which Fastify's trustProxy accepts beside CIDRs. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * What Fastify's `trustProxy` gets: `false` (the peer is the client; X-Forwarded-For and
 * X-Forwarded-Proto are ignored), a hop count (trust that many proxies in front), or the
 * addresses / CIDRs / range names of the proxies whose forwarded headers count.
 */
export type TrustProxy = false | number | string[];

function isProxyAddress(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  return entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
}

/**
 * TRUST_PROXY: unset or `off` → false; `1`..`10` → that many hops; else a comma-separated list
 * of proxy addresses, CIDRs or `loopback` / `linklocal` / `uniquelocal`. `true` ("trust
 * anyone") is refused: any client could then pick the address the limits key on.
 */
export const trustProxySchema = z
  .string()
  .trim()
  .optional()
  .transform((text, ctx): TrustProxy => {
    if (text === undefined || text === '' || text === 'off') return false;
    if (/^\d+$/.test(text)) {
      const hops = Number(text);
      if (hops >= 1 && hops <= 10) return hops;
      ctx.addIssue({ code: 'custom', message: 'a hop count must be 1..10 (or `off`)' });
      return z.NEVER;
    }
    const entries = text.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !isProxyAddress(e));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be \`off\`, a hop count, or proxy addresses / CIDRs / loopback, linklocal, uniquelocal separated by commas; not ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a scrape may read the metrics: always when no METRICS_TOKEN is set (the port is then
 * protected by where it listens), else only with `Authorization: Bearer <METRICS_TOKEN>`. Digests
 * are compared, so neither the length nor the bytes of the token leak through timing.
 */
export function metricsScrapeAllowed(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const match = /^Bearer (.+)$/.exec(authorization ?? '');
  if (!match) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}

import type { IncomingHttpHeaders } from 'node:http';

/** Response headers as one string each (repeated ones joined), for showing them in the console. */
export function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]])),
  ) as Record<string, string>;
}

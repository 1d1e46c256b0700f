import type { HttpCallResult } from './guarded-http-call';

export const SCRUBBED = '[secret header value]';

/** Values shorter than this are not scrubbed: they would mangle ordinary text ("1", "yes"). */
const MIN_SCRUBBED_LENGTH = 6;

/**
 * The response with every secret header value cut out of its body and headers. An endpoint that
 * echoes its request (a debugging proxy, an error page) would otherwise hand the tenant's secret
 * to the model, into the turn's trace and to the console's test call.
 */
export function scrubSecrets(res: HttpCallResult, secrets: readonly string[]): HttpCallResult {
  // "Bearer abc…" may come back as just "abc…": the credential after a scheme is scrubbed too.
  const candidates = secrets.flatMap((s) => [s, ...(/^\S+\s+(\S+)$/.exec(s.trim())?.slice(1) ?? [])]);
  const values = [...new Set(candidates)].filter((s) => s.length >= MIN_SCRUBBED_LENGTH).sort((a, b) => b.length - a.length);
  if (values.length === 0) return res;
  const scrub = (text: string) => values.reduce((out, v) => out.split(v).join(SCRUBBED), text);
  const headers = Object.fromEntries(
    Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.map(scrub) : typeof v === 'string' ? scrub(v) : v]),
  ) as HttpCallResult['headers'];
  return { ...res, headers, body: scrub(res.body) };
}

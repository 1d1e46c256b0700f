import { guardedHttpCall } from '../http-tools/guarded-http-call';

/** A platform's answer is small JSON; a cap keeps a misbehaving server from filling memory. */
const MAX_RESPONSE_BYTES = 256 * 1024;
const TIMEOUT_MS = 15_000;

export interface PlatformRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  allowedHosts: ReadonlySet<string>;
}

export interface PlatformAnswer {
  status: number;
  /** The body parsed as JSON; the raw text when it is not JSON. */
  body: unknown;
  /** Retry-After (seconds) from the header, when the platform sent one. */
  retryAfterHeaderMs: number | null;
}

/**
 * One call to a platform's API at a root the tenant configured: through the outbound guard
 * (OUTBOUND_ALLOWED_HOSTS, no private addresses, no redirects), like every tenant-configured URL.
 */
export async function callPlatform(r: PlatformRequest): Promise<PlatformAnswer> {
  const res = await guardedHttpCall({
    method: r.method,
    url: r.url,
    headers: { 'user-agent': 'switchboard-channel-adapter', ...(r.json !== undefined && { 'content-type': 'application/json' }), ...r.headers },
    originHeaders: {},
    body: r.json === undefined ? undefined : JSON.stringify(r.json),
    timeoutMs: TIMEOUT_MS,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    allowedHosts: r.allowedHosts,
    maxRedirects: 0,
  });
  let body: unknown = res.body;
  try {
    body = res.body ? JSON.parse(res.body) : null;
  } catch {
    // not JSON: keep the text for the error message
  }
  const header = res.headers['retry-after'];
  const seconds = typeof header === 'string' && /^\d+$/.test(header.trim()) ? Number(header) : null;
  return { status: res.status, body, retryAfterHeaderMs: seconds === null ? null : seconds * 1000 };
}

/** What one send to a platform came to, for the delivery's bookkeeping. */
export type SendOutcome =
  | { ok: true }
  /** Try again later; `retryAfterMs` when the platform said how long to wait (429). */
  | { ok: false; status?: number; error: string; retryAfterMs?: number }
  /** Retrying cannot help (WhatsApp's closed window without a template): dead-letter now, with this code. */
  | { ok: false; dead: true; code: string; error: string };

export function excerpt(body: unknown): string {
  return (typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 300);
}

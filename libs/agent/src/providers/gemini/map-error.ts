// What @google/genai throws → ProviderError with the kind engine.md §4 maps to an outcome.
// The SDK's ApiError carries the status and the JSON error body as its message.
import { isNetworkFailure, policyRefusal } from '../network-error';
import { genaiSdk, type ApiError } from './sdk';
import { ProviderError, type ProviderErrorKind } from '../../provider';

interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: { '@type'?: string; reason?: string; retryDelay?: string; violations?: { quotaId?: string; quotaMetric?: string }[] }[];
}

const CONTEXT_MESSAGE = /token count.*exceeds|exceeds the maximum number of tokens|input token count|context (length|window)|too many tokens|prompt is too long/i;
const DAILY_QUOTA = /per ?day|perday|daily/i;

/** `retryAfterHeaderMs`: the Retry-After the failed response carried, when it had one. */
export function mapGeminiError(err: unknown, retryAfterHeaderMs?: number, now = Date.now()): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof genaiSdk().ApiError) return fromApiError(err, retryAfterHeaderMs, now);
  const refused = policyRefusal(err);
  if (refused) return new ProviderError({ kind: 'invalid', message: `The request to Gemini was refused before it left: ${refused.message}`, cause: err });
  if ((err as Error)?.name === 'AbortError') return new ProviderError({ kind: 'timeout', message: 'The request to Gemini was aborted.', cause: err });
  // undici: "fetch failed" (refused, reset), "terminated" (body cut); the SDK's stream reader:
  // "Incomplete JSON segment" when the connection dropped inside an event.
  if (isNetworkFailure(err)) {
    return new ProviderError({ kind: 'network', message: `The connection to Gemini failed: ${(err as Error).message}`, cause: err });
  }
  return new ProviderError({ kind: 'unknown', message: `Unexpected error from the Gemini client: ${String((err as Error)?.message ?? err)}`, cause: err });
}

function fromApiError(err: ApiError, retryAfterHeaderMs: number | undefined, now: number): ProviderError {
  const status = err.status;
  const body = parseBody(err.message);
  const detail = body?.message ?? err.message;
  const reasons = (body?.details ?? []).map((d) => d.reason ?? '');
  const make = (kind: ProviderErrorKind, message: string, extra: { retryAfterMs?: number; resetAt?: Date } = {}) =>
    new ProviderError({ kind, message: `${message} (${status} ${body?.status ?? ''}: ${detail})`.replace(/ \)$/, ')'), status, cause: err, ...extra });
  const retryInfoMs = retryDelayFromDetails(body);

  switch (true) {
    case status === 401 || status === 403 || reasons.includes('API_KEY_INVALID'):
      return make('auth', 'Gemini rejected the API key');
    case status === 429:
      return fromTooManyRequests(body, detail, retryAfterHeaderMs ?? retryInfoMs, now, make);
    case status === 400 || status === 413:
      if (status === 413 || CONTEXT_MESSAGE.test(detail)) return make('context', 'The conversation is longer than the model accepts');
      return make('invalid', 'Gemini refused the request');
    case status === 404:
      return make('invalid', 'The Gemini model or endpoint was not found');
    case status === 408 || status === 504:
      return make('timeout', 'Gemini timed out', { retryAfterMs: retryAfterHeaderMs });
    case status === 502 || status === 503 || status === 529:
      return make('overloaded', 'Gemini is overloaded or unavailable', { retryAfterMs: retryAfterHeaderMs ?? retryInfoMs });
    case status >= 500:
      return make('unknown', 'Gemini failed', { retryAfterMs: retryAfterHeaderMs });
    default:
      return make('invalid', `Gemini refused the request with status ${status}`);
  }
}

/**
 * RESOURCE_EXHAUSTED covers both a per-minute rate limit and a spent quota. A daily quota
 * violation, or a quota/billing message with no retry hint, is `quota` (with `resetAt` when
 * Google says when to retry); anything else is a rate limit a short wait fixes.
 */
function fromTooManyRequests(
  body: GoogleErrorBody | undefined,
  detail: string,
  retryAfterMs: number | undefined,
  now: number,
  make: (kind: ProviderErrorKind, message: string, extra?: { retryAfterMs?: number; resetAt?: Date }) => ProviderError,
): ProviderError {
  const violations = (body?.details ?? []).flatMap((d) => d.violations ?? []);
  const daily = violations.some((v) => DAILY_QUOTA.test(`${v.quotaId ?? ''} ${v.quotaMetric ?? ''}`));
  const spent = violations.length === 0 && retryAfterMs === undefined && /quota|billing/i.test(detail);
  if (daily || spent) {
    return make('quota', 'The Gemini quota is spent', retryAfterMs !== undefined ? { resetAt: new Date(now + retryAfterMs) } : {});
  }
  return make('rate-limited', 'Gemini is rate limiting requests', { retryAfterMs });
}

/** The body is the message: plain JSON, or "got status: X. {json}" for an error inside a stream. */
function parseBody(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf('{');
  if (start === -1) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as { error?: GoogleErrorBody };
    return parsed.error;
  } catch {
    return undefined;
  }
}

/** google.rpc.RetryInfo `retryDelay`, a protobuf Duration string like "23s" or "1.5s". */
function retryDelayFromDetails(body: GoogleErrorBody | undefined): number | undefined {
  const delay = body?.details?.find((d) => d.retryDelay !== undefined)?.retryDelay;
  const match = delay ? /^(\d+(?:\.\d+)?)s$/.exec(delay) : null;
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

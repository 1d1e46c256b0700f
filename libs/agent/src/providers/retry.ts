// The one retry policy of a provider round: a few attempts with jittered exponential backoff,
// honouring the server's Retry-After, for failures a short wait can fix. The SDKs' own
// retries are switched off so that this is the only loop (docs/providers.md).
import { ProviderError } from '../provider';
import { abortedByCaller } from './attempt';
import { ProviderConfigurationError } from './provider-configuration-error';

export interface RetryPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  /** First backoff step; doubles per retry. */
  baseDelayMs: number;
  /** Longest backoff step. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out inside the round: the error is thrown
   *  with `retryAfterMs` and the engine defers the step instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 20_000,
};

/** The policy a provider runs with: defaults, then `retry`, then `maxRetries`; checked. */
export function resolveRetryPolicy(maxRetries: number | undefined, retry: Partial<RetryPolicy> | undefined): RetryPolicy {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...retry, ...(maxRetries !== undefined ? { maxRetries } : {}) };
  for (const [key, value] of Object.entries(policy)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (key === 'maxRetries' && !Number.isInteger(value))) {
      throw new ProviderConfigurationError('provider-option-invalid', `${key} must be a ${key === 'maxRetries' ? 'whole ' : ''}number, 0 or more; got ${JSON.stringify(value)}.`);
    }
  }
  return policy;
}

export interface RetryOptions {
  policy: RetryPolicy;
  signal?: AbortSignal;
  /** Injected for tests; defaults to Math.random. */
  random?: () => number;
}

/** Kinds a short wait may fix. `unknown` only when the server answered 5xx. */
export function isRetryable(err: ProviderError): boolean {
  switch (err.kind) {
    case 'overloaded':
    case 'rate-limited':
    case 'timeout':
    case 'network':
      return true;
    case 'unknown':
      return err.status !== undefined && err.status >= 500;
    default:
      return false;
  }
}

/**
 * How long to wait before retry number `retry` (0-based), or `null` when the server asked for
 * a wait longer than the policy allows. Backoff uses "equal jitter": half the step fixed, half
 * random, so concurrent workers spread out but never retry at once.
 */
export function retryDelayMs(err: ProviderError, retry: number, policy: RetryPolicy, random = Math.random): number | null {
  if (err.retryAfterMs !== undefined) {
    if (err.retryAfterMs > policy.maxRetryAfterMs) return null;
    // At least what the server asked, plus up to 10% so a burst does not come back together.
    return Math.round(err.retryAfterMs * (1 + 0.1 * random()));
  }
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(step / 2 + (random() * step) / 2);
}

/** Runs `attempt` until it succeeds, fails for good, or the policy is spent. */
export async function withRetry<T>(attempt: (index: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { policy, signal, random = Math.random } = options;
  for (let index = 0; ; index++) {
    try {
      return await attempt(index);
    } catch (err) {
      if (!(err instanceof ProviderError) || !isRetryable(err) || index >= policy.maxRetries || signal?.aborted) throw err;
      const delay = retryDelayMs(err, index, policy, random);
      if (delay === null) throw err;
      await sleep(delay, signal);
    }
  }
}

/** Waits `ms`, or rejects as soon as the caller aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedByCaller(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedByCaller(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Reads a Retry-After value: delta-seconds ("2", "1.5") or an HTTP date. `retry-after-ms`
 * (OpenAI's millisecond variant) wins when given. Returns undefined for anything else.
 */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.round(Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

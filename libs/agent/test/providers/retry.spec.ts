import { ProviderError } from '../../src/provider';
import { DEFAULT_RETRY_POLICY, isRetryable, parseRetryAfter, retryDelayMs, withRetry } from '../../src/providers/retry';
import { parseJsonObject } from '../../src/providers/structured';
import { toolArguments } from '../../src/providers/tool-arguments';

const headers = (h: Record<string, string>) => new Headers(h);

describe('parseRetryAfter', () => {
  it('reads delta-seconds, fractional seconds, retry-after-ms and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    const now = Date.parse('2026-12-02T13:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 02 Dec 2026 13:00:30 GMT' }), now)).toBe(30_000);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': '-3' }))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('retry policy', () => {
  const err = (kind: ProviderError['kind'], extra: Partial<{ status: number; retryAfterMs: number }> = {}) => new ProviderError({ kind, message: kind, ...extra });

  it('retries only failures a short wait can fix', () => {
    for (const kind of ['overloaded', 'rate-limited', 'timeout', 'network'] as const) expect(isRetryable(err(kind))).toBe(true);
    for (const kind of ['empty', 'quota', 'auth', 'context', 'invalid'] as const) expect(isRetryable(err(kind))).toBe(false);
    expect(isRetryable(err('unknown', { status: 500 }))).toBe(true);
    expect(isRetryable(err('unknown'))).toBe(false);
  });

  it('backs off exponentially with equal jitter, capped', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 300 };
    expect(retryDelayMs(err('overloaded'), 0, policy, () => 0)).toBe(50);
    expect(retryDelayMs(err('overloaded'), 0, policy, () => 1)).toBe(100);
    expect(retryDelayMs(err('overloaded'), 1, policy, () => 0.5)).toBe(150);
    expect(retryDelayMs(err('overloaded'), 5, policy, () => 1)).toBe(300);
  });

  it('waits at least the Retry-After, and refuses one longer than maxRetryAfterMs', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxRetryAfterMs: 5_000 };
    expect(retryDelayMs(err('rate-limited', { retryAfterMs: 2_000 }), 0, policy, () => 0)).toBe(2_000);
    expect(retryDelayMs(err('rate-limited', { retryAfterMs: 2_000 }), 0, policy, () => 1)).toBe(2_200);
    expect(retryDelayMs(err('rate-limited', { retryAfterMs: 6_000 }), 0, policy, () => 0)).toBeNull();
  });

  it('withRetry makes 1 + maxRetries attempts at most and rethrows the last failure', async () => {
    let attempts = 0;
    const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 };
    await expect(
      withRetry(async () => {
        attempts++;
        throw err('overloaded', { status: 503 });
      }, { policy }),
    ).rejects.toMatchObject({ kind: 'overloaded' });
    expect(attempts).toBe(3);
  });

  it('withRetry does not retry what is not a ProviderError', async () => {
    let attempts = 0;
    await expect(
      withRetry(async () => {
        attempts++;
        throw new TypeError('bug');
      }, { policy: DEFAULT_RETRY_POLICY }),
    ).rejects.toThrow('bug');
    expect(attempts).toBe(1);
  });
});

describe('reading model output', () => {
  it('parses a JSON object from plain, fenced or wrapped text, and nothing else', () => {
    expect(parseJsonObject('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonObject('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(parseJsonObject('Aqui está: {"a":1} pronto')).toEqual({ a: 1 });
    expect(parseJsonObject('[1,2]')).toBeUndefined();
    expect(parseJsonObject('oi')).toBeUndefined();
    expect(parseJsonObject(null)).toBeUndefined();
  });

  it('passes tool arguments on as an object when they are one, else as the raw string', () => {
    expect(toolArguments('{"cidade":"Curitiba"}')).toEqual({ cidade: 'Curitiba' });
    expect(toolArguments('{"cidade": Curitiba')).toBe('{"cidade": Curitiba');
    expect(toolArguments('[1]')).toBe('[1]');
    expect(toolArguments('')).toEqual({});
    expect(toolArguments({ n: 1 })).toEqual({ n: 1 });
    expect(toolArguments(undefined)).toEqual({});
  });
});

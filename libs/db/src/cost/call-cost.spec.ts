import { amountOf, callCostMicros, microsOf, type TokenPrice } from './call-cost';
import { priceAt, type PriceRow } from './price-at';

// gpt-4.1-mini's list price: $0.40 input, $0.10 cached input, $1.60 output per million tokens.
const mini: TokenPrice = { currency: 'USD', inputPerMillionMicros: 400_000n, cachedInputPerMillionMicros: 100_000n, outputPerMillionMicros: 1_600_000n };

describe('callCostMicros', () => {
  it('prices input and output tokens per million, in micros', () => {
    // 1000 * 0.40 + 200 * 1.60 = 400 + 320 = 720 micros.
    expect(callCostMicros({ inputTokens: 1000, outputTokens: 200 }, mini)).toBe(720n);
    expect(callCostMicros({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, mini)).toBe(2_000_000n);
  });

  it('prices cached input tokens as cached: they are part of the input count', () => {
    // 600 fresh * 0.40 + 400 cached * 0.10 + 100 * 1.60 = 240 + 40 + 160.
    expect(callCostMicros({ inputTokens: 1000, cachedInputTokens: 400, outputTokens: 100 }, mini)).toBe(440n);
  });

  it('caps a cached count above the input count, and counts negative or fractional tokens as whole and not below 0', () => {
    expect(callCostMicros({ inputTokens: 100, cachedInputTokens: 500, outputTokens: 0 }, mini)).toBe(10n);
    expect(callCostMicros({ inputTokens: -5, outputTokens: 10.9 }, mini)).toBe(16n);
    expect(callCostMicros({ inputTokens: Number.NaN, outputTokens: 0 }, mini)).toBe(0n);
  });

  it('rounds half up once per call', () => {
    // 1 token at 0.40/M = 0.4 micros -> 0; 2 tokens = 0.8 -> 1; 5 tokens of $0.10 = 0.5 -> 1.
    expect(callCostMicros({ inputTokens: 1, outputTokens: 0 }, mini)).toBe(0n);
    expect(callCostMicros({ inputTokens: 2, outputTokens: 0 }, mini)).toBe(1n);
    expect(callCostMicros({ inputTokens: 5, cachedInputTokens: 5, outputTokens: 0 }, mini)).toBe(1n);
  });

  it('stays exact beyond what a double holds', () => {
    const dear: TokenPrice = { ...mini, outputPerMillionMicros: 9_000_000_000_000n };
    expect(callCostMicros({ inputTokens: 0, outputTokens: 3_000_000 }, dear)).toBe(27_000_000_000_000n);
  });
});

describe('microsOf and amountOf', () => {
  it('convert amounts with up to six decimals exactly, both ways', () => {
    expect(microsOf('0.15')).toBe(150_000n);
    expect(microsOf('2')).toBe(2_000_000n);
    expect(microsOf('0.000001')).toBe(1n);
    expect(amountOf(150_000n)).toBe('0.150000');
    expect(amountOf(12_345_678n)).toBe('12.345678');
    expect(amountOf(-1n)).toBe('-0.000001');
  });

  it('refuse what is not such an amount', () => {
    for (const bad of ['', '-1', '0.1234567', '1e3', 'abc']) expect(() => microsOf(bad)).toThrow(RangeError);
  });
});

describe('priceAt', () => {
  const row = (id: string, from: string, input: bigint, model = 'gpt-4.1-mini'): PriceRow => ({
    ...mini,
    id,
    provider: 'openai',
    model,
    effectiveFrom: new Date(from),
    inputPerMillionMicros: input,
  });
  const platform = [row('old', '2026-01-01T00:00:00Z', 400_000n), row('new', '2026-12-15T00:00:00Z', 300_000n), row('other', '2026-01-01T00:00:00Z', 1n, 'gpt-4.1')];

  it('takes the row in force at the time: a price change mid-month prices turns before and after it differently', () => {
    expect(priceAt({ platform, tenant: [] }, 'openai', 'gpt-4.1-mini', new Date('2026-12-14T23:59:59Z'))?.id).toBe('old');
    expect(priceAt({ platform, tenant: [] }, 'openai', 'gpt-4.1-mini', new Date('2026-12-15T00:00:00Z'))?.id).toBe('new');
    const before = callCostMicros({ inputTokens: 10_000, outputTokens: 0 }, priceAt({ platform, tenant: [] }, 'openai', 'gpt-4.1-mini', new Date('2026-12-10T00:00:00Z'))!);
    const after = callCostMicros({ inputTokens: 10_000, outputTokens: 0 }, priceAt({ platform, tenant: [] }, 'openai', 'gpt-4.1-mini', new Date('2026-12-20T00:00:00Z'))!);
    expect([before, after]).toEqual([4000n, 3000n]);
  });

  it("prefers the tenant's negotiated price once it is in force", () => {
    const tenant = [row('deal', '2026-12-01T00:00:00Z', 200_000n)];
    expect(priceAt({ platform, tenant }, 'openai', 'gpt-4.1-mini', new Date('2026-11-30T00:00:00Z'))?.id).toBe('old');
    expect(priceAt({ platform, tenant }, 'openai', 'gpt-4.1-mini', new Date('2026-12-20T00:00:00Z'))?.id).toBe('deal');
  });

  it("prices a model without a row of its own at its provider's `*` row", () => {
    const any = { ...row('any', '2020-01-01T00:00:00Z', 0n, '*'), provider: 'scripted' };
    expect(priceAt({ platform: [...platform, any], tenant: [] }, 'scripted', 'demo-model', new Date('2026-12-20T00:00:00Z'))?.id).toBe('any');
    expect(priceAt({ platform: [...platform, any], tenant: [] }, 'openai', 'gpt-4.1-mini', new Date('2026-12-20T00:00:00Z'))?.id).toBe('new');
  });

  it('has no price for an unknown model, or before the first row', () => {
    expect(priceAt({ platform, tenant: [] }, 'openai', 'gpt-9', new Date('2026-12-20T00:00:00Z'))).toBeUndefined();
    expect(priceAt({ platform, tenant: [] }, 'gemini', 'gpt-4.1-mini', new Date('2026-12-20T00:00:00Z'))).toBeUndefined();
    expect(priceAt({ platform, tenant: [] }, 'openai', 'gpt-4.1-mini', new Date('2025-12-31T00:00:00Z'))).toBeUndefined();
  });
});

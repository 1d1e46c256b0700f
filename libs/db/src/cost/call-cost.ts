// The arithmetic of cost (docs/cost.md). Money is an integer count of micro-units of a currency
// (1 USD = 1 000 000 micros) in bigint: no float ever touches it. Prices are per million tokens.

/** What a million tokens of each kind cost, in micro-units of `currency`. */
export interface TokenPrice {
  currency: string;
  inputPerMillionMicros: bigint;
  cachedInputPerMillionMicros: bigint;
  outputPerMillionMicros: bigint;
}

/** One model call's usage as the provider reported it; input tokens include the cached ones. */
export interface CallTokens {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
}

const PER_MILLION = 1_000_000n;

/** The one currency costs are kept in: sums and budgets never mix currencies (docs/cost.md). */
export const COST_CURRENCY = 'USD';

/**
 * One call's cost in micros, rounded half up once per call (the stored unit, so a turn's cost is
 * exactly the sum of its calls'). OpenAI's prompt_tokens and Gemini's promptTokenCount both
 * include the cached tokens: those are priced as cached, the rest as input. A cached count above
 * the input count (a provider's inconsistency) is capped at it; negative counts count as 0.
 */
export function callCostMicros(tokens: CallTokens, price: TokenPrice): bigint {
  const input = BigInt(wholeTokens(tokens.inputTokens));
  const cached = BigInt(Math.min(wholeTokens(tokens.cachedInputTokens ?? 0), wholeTokens(tokens.inputTokens)));
  const output = BigInt(wholeTokens(tokens.outputTokens));
  const scaled = (input - cached) * price.inputPerMillionMicros + cached * price.cachedInputPerMillionMicros + output * price.outputPerMillionMicros;
  return (scaled + PER_MILLION / 2n) / PER_MILLION;
}

function wholeTokens(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** A price given in currency units per million tokens (the way pricing pages write it, e.g. "0.15") as micros, exactly. */
export function microsOf(amount: string): bigint {
  const m = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(amount.trim());
  if (!m) throw new RangeError(`"${amount}" is not an amount with at most 6 decimals`);
  return BigInt(m[1]) * PER_MILLION + BigInt((m[2] ?? '').padEnd(6, '0'));
}

/** Micros as a decimal amount string with 6 decimals ("0.000150"), for CSV and JSON. */
export function amountOf(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  return `${sign}${abs / PER_MILLION}.${(abs % PER_MILLION).toString().padStart(6, '0')}`;
}

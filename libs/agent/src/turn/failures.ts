// A failed speak call becomes an outcome (engine.md §4): the talk step is deferred on the retry
// ladder, or the run ends when no wait can fix what failed.
import type { ProviderError } from '../provider';
import type { OutcomeCode } from '../types/outcome';

/** Retry delays of a deferred talk step: +1m, +5m, +15m, +1h, +6h. The 6th failure ends the run. */
export const RETRY_LADDER_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 6 * 60 * 60_000] as const;

export type FailurePlan =
  | { effect: 'defer'; code: OutcomeCode; at: Date }
  | { effect: 'end'; code: OutcomeCode };

/**
 * `failures` counts this failure too (1 for the first). Waiting cannot fix a quota without a
 * reset, bad credentials, an overlong context or a refused request: those end the run.
 */
export function planFailure(error: ProviderError, failures: number, now: Date): FailurePlan {
  switch (error.kind) {
    case 'quota':
      if (!error.resetAt) return { effect: 'end', code: 'provider-quota' };
      return ladder('provider-quota', failures, now, error.resetAt);
    case 'auth':
      return { effect: 'end', code: 'provider-auth' };
    case 'context':
      return { effect: 'end', code: 'provider-context' };
    case 'invalid':
      return { effect: 'end', code: 'provider-invalid' };
    default:
      // A server that said how long to wait (Retry-After) is not asked again sooner.
      return ladder('provider-unavailable', failures, now, error.retryAfterMs !== undefined ? new Date(now.getTime() + error.retryAfterMs) : undefined);
  }
}

function ladder(code: OutcomeCode, failures: number, now: Date, notBefore: Date | undefined): FailurePlan {
  if (failures > RETRY_LADDER_MS.length) return { effect: 'end', code };
  const rung = new Date(now.getTime() + RETRY_LADDER_MS[failures - 1]);
  const at = notBefore && notBefore.getTime() > rung.getTime() ? notBefore : rung;
  return { effect: 'defer', code, at };
}

/** What an idle failure reports: it has no run to defer, so only its code matters. */
export function failureCode(error: ProviderError): OutcomeCode {
  return planFailure(error, 1, new Date(0)).code;
}

import { amountOf, microsOf } from '@switchboard/db';
import { z } from 'zod';

/**
 * An amount of USD as sent by the console or an integrator: "250" or 250.5, at most 6 decimals,
 * kept as exact micros. `message` says what the amount is when it cannot be read.
 */
export function usdMicros(message: string) {
  return z.union([z.string(), z.number().nonnegative().finite()]).transform((v, ctx) => {
    try {
      return microsOf(typeof v === 'number' ? v.toFixed(6) : v);
    } catch {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
  });
}

/** A monthly budget in USD; null = none. Used for the tenant's budget and an agent's own. */
export const budgetAmount = usdMicros('a budget in USD, e.g. "250.00", with at most 6 decimals').nullable().optional();

/** Micros as the API shows a budget: USD as an exact decimal string ("250.000000"), null = none. */
export const budgetOf = (micros: bigint | null): string | null => (micros === null ? null : amountOf(micros));

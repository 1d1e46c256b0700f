import { amountOf, COST_CURRENCY } from '@switchboard/db';
import { z } from 'zod';
import { usdMicros } from '../common/budget-amount';

// What a price looks like on the admin API (ModelPrice and TenantModelPrice alike): amounts per
// million tokens as decimal strings with up to 6 decimals ("0.40"), stored as exact micros.

/** An amount per million tokens: "0.40" or 0.4, at most 6 decimals, at most a trillion. */
const amount = usdMicros('an amount per million tokens, e.g. "0.40", with at most 6 decimals');
const provider = z.string().trim().min(1).max(100);
const model = z.string().trim().min(1).max(200);
const currency = z.literal(COST_CURRENCY, { message: `prices are kept in ${COST_CURRENCY} (docs/cost.md)` });
// Years 1..9999 only (Postgres has no year 0); defaults to now on create.
const effectiveFrom = z.iso.datetime({ offset: true }).transform((s) => new Date(s)).refine((d) => d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999, 'a date between years 1 and 9999');
const source = z.string().trim().max(500).nullable().optional();

const priceFields = { provider, model, currency: currency.optional(), input: amount, cachedInput: amount, output: amount, effectiveFrom: effectiveFrom.optional(), source };
export const createPriceBody = z.strictObject(priceFields);
export const createTenantPriceBody = z.strictObject({ ...priceFields, tenantId: z.string().optional() });
// react-admin sends the record back: read-only keys (id, dates, tenantId) are dropped.
export const updatePriceBody = z.object({
  provider: provider.optional(),
  model: model.optional(),
  currency: currency.optional(),
  input: amount.optional(),
  cachedInput: amount.optional(),
  output: amount.optional(),
  effectiveFrom: effectiveFrom.optional(),
  source,
});
export type CreatePriceBody = z.infer<typeof createPriceBody>;
export type UpdatePriceBody = z.infer<typeof updatePriceBody>;

/** The columns both price tables share. */
export const priceSelect = {
  id: true,
  provider: true,
  model: true,
  currency: true,
  inputPerMillionMicros: true,
  cachedInputPerMillionMicros: true,
  outputPerMillionMicros: true,
  effectiveFrom: true,
  source: true,
  createdAt: true,
  updatedAt: true,
} as const;

interface PriceRow {
  id: string;
  provider: string;
  model: string;
  currency: string;
  inputPerMillionMicros: bigint;
  cachedInputPerMillionMicros: bigint;
  outputPerMillionMicros: bigint;
  effectiveFrom: Date;
  source: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A row as the API answers it: amounts as decimal strings, never floats. */
const perMillion = z.string().describe('Per million tokens, an exact decimal string ("0.400000").');
/** A platform price as answers show it. */
export const priceRecord = z.object({
  id: z.uuid(),
  provider: z.string(),
  model: z.string(),
  currency: z.string(),
  effectiveFrom: z.date(),
  source: z.string().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  input: perMillion,
  cachedInput: perMillion,
  output: perMillion,
});
/** A tenant's own price (overrides the platform's for that tenant). */
export const tenantPriceRecord = priceRecord.extend({ tenantId: z.uuid() });

export function priceDto<R extends PriceRow>(row: R) {
  const { inputPerMillionMicros, cachedInputPerMillionMicros, outputPerMillionMicros, ...rest } = row;
  return { ...rest, input: amountOf(inputPerMillionMicros), cachedInput: amountOf(cachedInputPerMillionMicros), output: amountOf(outputPerMillionMicros) };
}

/** The columns a create or update writes (only those the body has). */
export function priceData(b: UpdatePriceBody) {
  return {
    ...(b.provider !== undefined && { provider: b.provider }),
    ...(b.model !== undefined && { model: b.model }),
    ...(b.currency !== undefined && { currency: b.currency }),
    ...(b.input !== undefined && { inputPerMillionMicros: b.input }),
    ...(b.cachedInput !== undefined && { cachedInputPerMillionMicros: b.cachedInput }),
    ...(b.output !== undefined && { outputPerMillionMicros: b.output }),
    ...(b.effectiveFrom !== undefined && { effectiveFrom: b.effectiveFrom }),
    ...(b.source !== undefined && { source: b.source }),
  };
}

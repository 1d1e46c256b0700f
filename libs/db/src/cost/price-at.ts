import type { TokenPrice } from './call-cost';

/** A row of ModelPrice or TenantModelPrice: a price from `effectiveFrom` on. */
export interface PriceRow extends TokenPrice {
  id: string;
  provider: string;
  model: string;
  effectiveFrom: Date;
}

/** A row's model `*` prices every model of its provider that has no row of its own (the scripted provider's 0). */
export const ANY_MODEL = '*';

/**
 * The price in force at `at` for a provider and model: the tenant's own (negotiated) rows win
 * over the platform's list, and within each the row with the latest `effectiveFrom` not after
 * `at`; a row for the exact model wins over the provider's `*` row. Undefined when none is in
 * force: the call costs 0 and is flagged as unpriced.
 */
export function priceAt(
  rows: { tenant: readonly PriceRow[]; platform: readonly PriceRow[] },
  provider: string,
  model: string,
  at: Date,
): PriceRow | undefined {
  return (
    latest(rows.tenant, provider, model, at) ??
    latest(rows.platform, provider, model, at) ??
    latest(rows.tenant, provider, ANY_MODEL, at) ??
    latest(rows.platform, provider, ANY_MODEL, at)
  );
}

function latest(rows: readonly PriceRow[], provider: string, model: string, at: Date): PriceRow | undefined {
  let found: PriceRow | undefined;
  for (const r of rows) {
    if (r.provider !== provider || r.model !== model || r.effectiveFrom.getTime() > at.getTime()) continue;
    if (!found || r.effectiveFrom.getTime() > found.effectiveFrom.getTime()) found = r;
  }
  return found;
}

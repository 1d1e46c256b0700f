import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import { priceAt, type PriceRow } from './price-at';

/**
 * How long one process trusts the price tables it read. Rows carry their effective dates, so a
 * cached table still prices every turn at the row in force then; only a row added or edited in
 * the last PRICE_CACHE_MS may be missed, which an admin sets ahead of its date anyway.
 */
export const PRICE_CACHE_MS = 30_000;
const MAX_CACHED_TENANTS = 10_000;

const priceSelect = {
  id: true,
  provider: true,
  model: true,
  currency: true,
  inputPerMillionMicros: true,
  cachedInputPerMillionMicros: true,
  outputPerMillionMicros: true,
  effectiveFrom: true,
} as const;

/** The price tables (ModelPrice, and TenantModelPrice per tenant), read at most every PRICE_CACHE_MS. */
@Injectable()
export class ModelPrices {
  private platform: { rows: PriceRow[]; until: number } | undefined;
  private readonly tenants = new Map<string, { rows: PriceRow[]; until: number }>();

  constructor(private readonly prisma: PrismaService) {}

  /** The price of `provider`/`model` for the tenant at `at`, undefined when none is set. */
  async priceFor(tenantId: string, provider: string, model: string, at: Date): Promise<PriceRow | undefined> {
    const [platform, tenant] = await Promise.all([this.platformRows(), this.tenantRows(tenantId)]);
    return priceAt({ platform, tenant }, provider, model, at);
  }

  private async platformRows(): Promise<PriceRow[]> {
    const now = Date.now();
    if (this.platform && this.platform.until > now) return this.platform.rows;
    const rows = await this.prisma.modelPrice.findMany({ select: priceSelect });
    this.platform = { rows, until: now + PRICE_CACHE_MS };
    return rows;
  }

  private async tenantRows(tenantId: string): Promise<PriceRow[]> {
    const now = Date.now();
    const cached = this.tenants.get(tenantId);
    if (cached && cached.until > now) return cached.rows;
    const rows = await this.prisma.tenantModelPrice.findMany({ where: { tenantId }, select: priceSelect });
    if (this.tenants.size >= MAX_CACHED_TENANTS) this.tenants.clear();
    this.tenants.set(tenantId, { rows, until: now + PRICE_CACHE_MS });
    return rows;
  }
}

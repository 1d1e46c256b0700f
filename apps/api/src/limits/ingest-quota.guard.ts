import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { ChannelAuthRequest } from '../channel-auth/channel-auth.context';
import { postMessageBody } from '../messages/messages.schemas';
import { monthToDateUsage, quotaState, type QuotaState } from './monthly-usage';
import { QuotaExceededError } from './quota-exceeded.error';
import { storeRefusedMessage } from './store-refused-message';

/**
 * Monthly per-tenant quotas on model calls and tokens (Tenant.monthlyLlmCallQuota /
 * monthlyTokenQuota, null = unlimited), checked against this month's usage roll-up. Over quota,
 * a valid message is stored (failed, kind quota-exceeded) and answered 429 `quota-exceeded`
 * with its ids; an invalid one goes on to ingest's own 400. Runs after ApiKeyGuard.
 */
/**
 * How long one instance trusts a tenant's quota verdict. Usage only grows by whole turns and the
 * roll-up lags the turn anyway, so a few seconds of staleness costs at most a few messages past
 * the quota, and saves two queries on almost every ingest request.
 */
export const QUOTA_CACHE_MS = 5_000;
const MAX_CACHED_TENANTS = 10_000;

@Injectable()
export class IngestQuotaGuard implements CanActivate {
  private readonly verdicts = new Map<string, { state: QuotaState | null; until: number }>();

  constructor(private readonly prisma: PrismaService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ChannelAuthRequest>();
    const auth = request.channelAuth;
    if (!auth) return true;
    const state = await this.verdict(auth.tenantId);
    if (!state?.exceeded) return true;
    const body = postMessageBody.safeParse(request.body);
    if (!body.success) return true; // the handler's validation answers 400 with the details
    const stored = await storeRefusedMessage(this.prisma, auth, body.data);
    throw new QuotaExceededError(state.exceeded, state[state.exceeded].quota!, state.resetsAt, stored);
  }

  /** The tenant's quota state, null when it has no quota; cached for QUOTA_CACHE_MS. */
  private async verdict(tenantId: string): Promise<QuotaState | null> {
    const now = Date.now();
    const cached = this.verdicts.get(tenantId);
    if (cached && cached.until > now) return cached.state;
    const tenant = await this.prisma.tenant.findUnique({
      where: { id: tenantId },
      select: { monthlyLlmCallQuota: true, monthlyTokenQuota: true },
    });
    const state =
      !tenant || (tenant.monthlyLlmCallQuota === null && tenant.monthlyTokenQuota === null)
        ? null
        : quotaState(await monthToDateUsage(this.prisma, tenantId), tenant);
    if (this.verdicts.size >= MAX_CACHED_TENANTS) this.verdicts.clear();
    this.verdicts.set(tenantId, { state, until: now + QUOTA_CACHE_MS });
    return state;
  }
}

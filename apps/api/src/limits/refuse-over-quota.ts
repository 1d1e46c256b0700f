import type { TenantQuotas } from '@switchboard/db';
import { QuotaExceededError } from './quota-exceeded.error';

/**
 * Refuses an event or a manual start of a tenant over its monthly quota (or of an agent over its
 * own budget, when `agentId` is given): 429 `quota-exceeded` with Retry-After, as a message is
 * refused, and nothing stored (an event or a start has no transcript to keep; the caller retries
 * it with the same key after the reset).
 */
export async function refuseOverQuota(quotas: TenantQuotas, tenantId: string, agentId?: string): Promise<void> {
  const state = await quotas.verdict(tenantId, agentId);
  if (state.exceeded) throw new QuotaExceededError({ ...state, exceeded: state.exceeded }, null);
}

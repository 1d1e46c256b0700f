import type { PrismaService } from '../prisma.service';
import { TenantQuotas } from './tenant-quotas';

// The worker reads which limits exist with the turn's own claim-and-load; a limit that does not
// exist must then cost no query (they were two round trips every few seconds per tenant and agent).

function prismaCounting() {
  const calls: string[] = [];
  const record = (what: string, value: unknown) => async () => {
    calls.push(what);
    return value;
  };
  const prisma = {
    tenant: { findUnique: record('tenant', { monthlyLlmCallQuota: null, monthlyTokenQuota: null, monthlyBudgetMicros: null, budgetWarnedMonth: null }) },
    agent: { findFirst: record('agent', { monthlyBudgetMicros: null, budgetWarnedMonth: null }) },
  } as unknown as PrismaService;
  return { prisma, calls };
}

describe('TenantQuotas.verdict with the limits the caller read', () => {
  it('makes no query when neither the tenant nor the agent has a limit', async () => {
    const { prisma, calls } = prismaCounting();
    const verdict = await new TenantQuotas(prisma).verdict('t', 'a', { tenant: false, agent: false });
    expect(verdict).toMatchObject({ exceeded: null, tenant: null, agent: null });
    expect(calls).toEqual([]);
  });

  it('reads only the side that has a limit', async () => {
    const { prisma, calls } = prismaCounting();
    await new TenantQuotas(prisma).verdict('t', 'a', { tenant: false, agent: true });
    expect(calls).toEqual(['agent']);
  });

  it('reads both sides without the hint, as the API does', async () => {
    const { prisma, calls } = prismaCounting();
    await new TenantQuotas(prisma).verdict('t', 'a');
    expect(calls.sort()).toEqual(['agent', 'tenant']);
  });
});

import { agentBudgetState, combineVerdict, monthOf, quotaState } from './monthly-usage';

describe('quotas', () => {
  it('reset at the start of the next UTC month', () => {
    expect(monthOf(new Date('2026-12-31T23:59:59Z'))).toEqual({ from: new Date('2026-12-01T00:00:00Z'), resetsAt: new Date('2027-01-01T00:00:00Z') });
  });

  it('are exceeded once usage reaches them, model calls first; null is unlimited', () => {
    const usage = { llmCalls: 10, tokens: 500, console: { llmCalls: 4, tokens: 200 }, costMicros: 0, from: new Date(0), resetsAt: new Date(1) };
    expect(quotaState(usage, { monthlyLlmCallQuota: 10n, monthlyTokenQuota: 100n }).exceeded).toBe('llmCalls');
    expect(quotaState(usage, { monthlyLlmCallQuota: 11n, monthlyTokenQuota: 500n }).exceeded).toBe('tokens');
    expect(quotaState(usage, { monthlyLlmCallQuota: null, monthlyTokenQuota: null }).exceeded).toBeNull();
  });

  it('are exceeded by money once the month costs the budget, with a warning from 80% until then', () => {
    const usage = (costMicros: number) => ({ llmCalls: 1, tokens: 1, console: { llmCalls: 0, tokens: 0 }, costMicros, from: new Date(0), resetsAt: new Date(1) });
    const limits = { monthlyLlmCallQuota: null, monthlyTokenQuota: null, monthlyBudgetMicros: 10_000_000n };
    expect(quotaState(usage(7_999_999), limits)).toMatchObject({ exceeded: null, budgetWarning: false, cost: { used: 7_999_999, quota: 10_000_000 } });
    expect(quotaState(usage(8_000_000), limits)).toMatchObject({ exceeded: null, budgetWarning: true });
    expect(quotaState(usage(10_000_000), limits)).toMatchObject({ exceeded: 'cost', budgetWarning: false });
    expect(quotaState(usage(10_000_000), { ...limits, monthlyBudgetMicros: null })).toMatchObject({ exceeded: null, budgetWarning: false, cost: { quota: null } });
    // Calls and tokens are named first when several limits are spent.
    expect(quotaState(usage(10_000_000), { ...limits, monthlyLlmCallQuota: 1n }).exceeded).toBe('llmCalls');
  });

  it("are exceeded by an agent's own budget once its month costs it, the tenant's quotas named first", () => {
    expect(agentBudgetState('a', 1_599, 2_000n)).toEqual({ agentId: 'a', used: 1_599, quota: 2_000, warning: false, exceeded: false });
    expect(agentBudgetState('a', 1_600, 2_000n)).toMatchObject({ warning: true, exceeded: false });
    expect(agentBudgetState('a', 2_000, 2_000n)).toMatchObject({ warning: false, exceeded: true });

    const now = new Date('2026-12-04T10:00:00Z');
    const spent = agentBudgetState('a', 2_316, 2_000n);
    // No tenant limit: the agent's budget alone refuses, and the month still resets on the 1st.
    expect(combineVerdict(null, spent, now)).toMatchObject({ exceeded: 'agentCost', limit: 2_000, resetsAt: new Date('2027-01-01T00:00:00Z') });
    expect(combineVerdict(null, agentBudgetState('a', 10, 2_000n), now)).toMatchObject({ exceeded: null, limit: null });
    expect(combineVerdict(null, null, now)).toMatchObject({ exceeded: null, tenant: null, agent: null });
    const usage = { llmCalls: 10, tokens: 1, console: { llmCalls: 0, tokens: 0 }, costMicros: 0, from: new Date(0), resetsAt: new Date(1) };
    const tenant = quotaState(usage, { monthlyLlmCallQuota: 10n, monthlyTokenQuota: null });
    expect(combineVerdict(tenant, spent, now)).toMatchObject({ exceeded: 'llmCalls', limit: 10, resetsAt: new Date(1) });
  });
});

import { monthOf, quotaState } from './monthly-usage';

describe('quotas', () => {
  it('reset at the start of the next UTC month', () => {
    expect(monthOf(new Date('2026-12-31T23:59:59Z'))).toEqual({ from: new Date('2026-12-01T00:00:00Z'), resetsAt: new Date('2027-01-01T00:00:00Z') });
  });

  it('are exceeded once usage reaches them, model calls first; null is unlimited', () => {
    const usage = { llmCalls: 10, tokens: 500, console: { llmCalls: 4, tokens: 200 }, from: new Date(0), resetsAt: new Date(1) };
    expect(quotaState(usage, { monthlyLlmCallQuota: 10n, monthlyTokenQuota: 100n }).exceeded).toBe('llmCalls');
    expect(quotaState(usage, { monthlyLlmCallQuota: 11n, monthlyTokenQuota: 500n }).exceeded).toBe('tokens');
    expect(quotaState(usage, { monthlyLlmCallQuota: null, monthlyTokenQuota: null }).exceeded).toBeNull();
  });
});

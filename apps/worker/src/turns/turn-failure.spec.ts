import { ProviderError, type TurnResult } from '@falai/agent';
import { SecretDecryptError } from '@switchboard/db';
import { PROVIDER_RETRY_LADDER_MS } from '../config/worker-settings';
import { permanentFailureCode, transientRetryDelayMs } from './turn-failure';
import { distinctCodes, failedForGood, turnUsage } from './turn-record';

describe('turn failures', () => {
  it('treats auth, context, invalid and quota without a reset as permanent, with their codes', () => {
    expect(permanentFailureCode(new ProviderError({ kind: 'auth', message: 'x' }))).toBe('provider-auth');
    expect(permanentFailureCode(new ProviderError({ kind: 'context', message: 'x' }))).toBe('provider-context');
    expect(permanentFailureCode(new ProviderError({ kind: 'invalid', message: 'x' }))).toBe('provider-invalid');
    expect(permanentFailureCode(new ProviderError({ kind: 'quota', message: 'x' }))).toBe('provider-quota');
    expect(permanentFailureCode(new ProviderError({ kind: 'quota', message: 'x', resetAt: new Date() }))).toBeUndefined();
    for (const kind of ['overloaded', 'rate-limited', 'timeout', 'network', 'empty', 'unknown'] as const) {
      expect(permanentFailureCode(new ProviderError({ kind, message: 'x' }))).toBeUndefined();
    }
  });

  it('treats an agent that cannot be built as permanent, and our own errors as retryable', () => {
    const config = Object.assign(new Error('bad'), { name: 'FlowConfigurationError' });
    expect(permanentFailureCode(config)).toBe('agent-unavailable');
    expect(permanentFailureCode(new SecretDecryptError('wrong key'))).toBe('agent-unavailable');
    expect(permanentFailureCode(new Error('connection reset'))).toBeUndefined();
  });

  it('backs off along the ladder, honouring Retry-After and quota resets', () => {
    const overloaded = new ProviderError({ kind: 'overloaded', message: 'x' });
    expect(transientRetryDelayMs(overloaded, 0)).toBe(PROVIDER_RETRY_LADDER_MS[0]);
    expect(transientRetryDelayMs(overloaded, 2)).toBe(PROVIDER_RETRY_LADDER_MS[2]);
    expect(transientRetryDelayMs(overloaded, 99)).toBe(PROVIDER_RETRY_LADDER_MS.at(-1));
    expect(transientRetryDelayMs(new ProviderError({ kind: 'rate-limited', message: 'x', retryAfterMs: 30_000 }), 0)).toBe(30_000);
    const now = Date.now();
    expect(transientRetryDelayMs(new ProviderError({ kind: 'quota', message: 'x', resetAt: new Date(now + 120_000) }), 0, now)).toBe(120_000);
    expect(transientRetryDelayMs(new ProviderError({ kind: 'auth', message: 'x' }), 0)).toBeUndefined();
    expect(transientRetryDelayMs(new Error('bug'), 0)).toBeUndefined();
  });
});

describe('turn record', () => {
  const at = '2026-12-02T13:00:00.000Z';
  const base: TurnResult = {
    session: { id: 's', version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: {} },
    changed: true,
    messages: [],
    llmCalls: 3,
    usage: { inputTokens: 10, outputTokens: 5 },
    outcomes: [
      { kind: 'collect', status: 'skipped', code: 'already-known', at },
      { kind: 'prompt', status: 'ok', code: 'spoke', at },
      { kind: 'prompt', status: 'ok', code: 'spoke', at },
      { kind: 'say', status: 'ok', at },
    ],
    started: [],
    ended: [],
    schedule: [],
    trace: [
      { type: 'model', call: 'understand', round: 0, ms: 12.4 },
      { type: 'model', call: 'speak', round: 1, ms: 20 },
      { type: 'tool', round: 1, index: 0, id: 'call-1-0', tool: 'preco', arguments: {}, gate: 'ok', result: '{}', ms: 3.2 },
    ],
  };

  it('sums model and tool time from the trace and counts tokens, zero when absent', () => {
    expect(turnUsage(base)).toMatchObject({
      llmCalls: 3,
      inputTokens: 10,
      outputTokens: 5,
      cachedInputTokens: 0,
      outcomeCodes: ['already-known', 'spoke'],
      modelMs: 32,
      toolsMs: 3,
    });
    expect(turnUsage({ ...base, usage: undefined, trace: [] })).toMatchObject({ inputTokens: 0, modelMs: 0, toolsMs: 0 });
  });

  it('lists each outcome code once, in first-seen order', () => {
    expect(distinctCodes(base.outcomes)).toEqual(['already-known', 'spoke']);
  });

  it('finds a run that ended failed for a provider reason', () => {
    expect(failedForGood(base)).toBeUndefined();
    const run = { id: 'r', flowId: 'f', stepId: 's', status: 'running' as const, asked: {}, visits: {}, startedAt: at, outcomes: [] };
    expect(failedForGood({ ...base, ended: [{ ...run, reason: 'failed', code: 'provider-auth' }] })).toBe('provider-auth');
    expect(failedForGood({ ...base, ended: [{ ...run, reason: 'completed' }] })).toBeUndefined();
    expect(failedForGood({ ...base, ended: [{ ...run, reason: 'step-loop' }] })).toBeUndefined();
  });
});

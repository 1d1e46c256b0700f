import type { StepOutcome } from '@falai/agent';
import { outcomeCodeLabels, turnOutcome } from './turn-metrics';

const outcome = (status: StepOutcome['status'], code?: string): StepOutcome => ({ kind: 'idle', status, code: code as StepOutcome['code'], at: '2026-12-02T00:00:00Z' });
const turn = (inboundStatus: 'answered' | 'failed', replies: number, outcomes: StepOutcome[]) => ({
  inboundStatus,
  replies: Array.from({ length: replies }, (_, i) => ({ key: `k${i}`, text: 'hi', kind: 'reply' })),
  usage: { outcomes, outcomeCodes: outcomes.flatMap((o) => (o.code ? [o.code] : [])) } as never,
});

describe('turnOutcome', () => {
  it('names a turn by how it went: handed off first, then failed, then whether it replied', () => {
    expect(turnOutcome(turn('answered', 0, [outcome('skipped', 'handed-off')]))).toBe('handed_off');
    expect(turnOutcome(turn('failed', 0, [outcome('failed', 'provider-auth')]))).toBe('failed');
    // The fallback message went out, but the turn still failed.
    expect(turnOutcome(turn('answered', 1, [outcome('failed', 'provider-auth')]))).toBe('failed');
    expect(turnOutcome(turn('answered', 2, [outcome('ok', 'spoke')]))).toBe('answered');
    expect(turnOutcome(turn('answered', 0, [outcome('ok')]))).toBe('silent');
  });
});

describe('outcomeCodeLabels', () => {
  it("labels a turn with its agent and each of its outcome codes once", () => {
    const usage = { outcomes: [], outcomeCodes: ['provider-unavailable', 'asked', 'provider-unavailable'] } as never;
    expect(outcomeCodeLabels({ agentId: 'a-1', usage })).toEqual([
      { agent: 'a-1', code: 'provider-unavailable' },
      { agent: 'a-1', code: 'asked' },
    ]);
    expect(outcomeCodeLabels({ agentId: 'a-1', usage: { outcomes: [], outcomeCodes: [] } as never })).toEqual([]);
  });
});

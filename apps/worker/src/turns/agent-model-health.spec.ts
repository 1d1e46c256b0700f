import { AgentModelHealth, REMEMBERED_AGENTS } from './agent-model-health';

describe('AgentModelHealth', () => {
  it("tells whether an agent's model answered after a given time", () => {
    const health = new AgentModelHealth();
    expect(health.answeredSince('a', 0)).toBe(false);
    health.answered('a', 1_000);
    expect(health.answeredSince('a', 999)).toBe(true);
    expect(health.answeredSince('a', 1_000)).toBe(false);
    expect(health.answeredSince('b', 0)).toBe(false);
  });

  it('forgets the agents answered longest ago past its bound, not one answered again', () => {
    const health = new AgentModelHealth();
    for (let i = 0; i < REMEMBERED_AGENTS; i++) health.answered(`agent-${i}`, 10);
    health.answered('agent-0', 20);
    health.answered('one-more', 30);
    expect(health.answeredSince('agent-0', 0)).toBe(true);
    expect(health.answeredSince('agent-1', 0)).toBe(false);
    expect(health.answeredSince('one-more', 0)).toBe(true);
  });
});

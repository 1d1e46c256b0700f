import type { AgentRunTurn, RecordedCall } from '@switchboard/queue';
import { consoleUsageOf } from './agent-run.processor';

const call = (inputTokens: number, outputTokens: number, cachedInputTokens?: number): RecordedCall => ({
  call: 'speak',
  round: 0,
  tools: [],
  reply: { text: 'ok', toolCalls: [], usage: { inputTokens, outputTokens, ...(cachedInputTokens !== undefined && { cachedInputTokens }) } },
});

const turn = (patch: Partial<AgentRunTurn>): AgentRunTurn => ({
  message: 'oi',
  replies: [],
  trace: [],
  outcomes: [],
  llmCalls: 0,
  usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
  fields: {},
  at: null,
  recording: [],
  totalMs: 1,
  ...patch,
});

describe('consoleUsageOf', () => {
  it("sums a finished turn's reported usage, and the recorded calls of a turn the engine could not finish", () => {
    const finished = turn({ llmCalls: 2, usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 40 }, recording: [call(1, 1), call(1, 1)] });
    const failed = turn({ error: { code: 'provider-refused', message: 'no' }, recording: [call(30, 5), call(7, 0, 3)] });
    expect(consoleUsageOf([finished, failed])).toEqual({ turns: 2, llmCalls: 4, inputTokens: 137, outputTokens: 25, cachedInputTokens: 43 });
  });

  it('is all zeros for no turns, so nothing is written', () => {
    expect(consoleUsageOf([])).toEqual({ turns: 0, llmCalls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });
  });
});

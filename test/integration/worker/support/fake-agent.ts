import type { Agent, Session, TurnChunk, TurnInput, TurnResult } from '@falai/agent';
import type { AgentConfig } from '@switchboard/agent-config';
import type { LoadedAgent } from '../../../../apps/worker/src/agents/agent-catalog';
import type { TurnContext } from '../../../../apps/worker/src/tools/agent-tool.decorator';

// A stand-in engine agent for pipeline tests: it answers each message with an echo that shows the
// history it was given, counts turns in the session blob, and records every input it saw.

export type TurnBehaviour = (input: TurnInput<TurnContext>, result: TurnResult) => Promise<TurnResult> | TurnResult;

export function newSession(id: string): Session {
  return { id, version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: {} };
}

export class FakeAgent implements Agent<TurnContext> {
  readonly name = 'fake';
  readonly inputs: TurnInput<TurnContext>[] = [];
  behaviour: TurnBehaviour = (_i, r) => r;

  async turn(input: TurnInput<TurnContext>): Promise<TurnResult> {
    this.inputs.push(input);
    const session = structuredClone(input.session ?? newSession(input.sessionId));
    session.data = { ...session.data, turns: Number(session.data.turns ?? 0) + 1 };
    session.inputs = [...session.inputs, input.id ?? ''];
    const at = new Date().toISOString();
    const result: TurnResult = {
      session,
      changed: true,
      messages: [{ text: `eco: ${input.message} (history ${input.history?.length ?? 0})`, kind: 'ai', key: `idle:${input.id}` }],
      llmCalls: 1,
      usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 10 },
      outcomes: [{ kind: 'idle', status: 'ok', code: 'spoke', at }],
      started: [],
      ended: [],
      schedule: [],
      trace: [{ type: 'model', call: 'speak', round: 1, ms: 7 }],
    };
    return this.behaviour(input, result);
  }

  /** Streams each message's text as one delta, then the result, as the engine's turnStream does. */
  async *turnStream(input: TurnInput<TurnContext>): AsyncIterable<TurnChunk> {
    const result = await this.turn(input);
    for (const m of result.messages) yield { delta: m.text };
    yield { done: true, result };
  }
}

export function loadedAgent(agent: FakeAgent, config: Partial<AgentConfig> = {}): LoadedAgent {
  return {
    agentId: 'fake',
    version: 3,
    config: { provider: { kind: 'scripted', model: 'fake-1' }, fields: {}, flows: [], tools: [], ...config },
    agent,
    provider: { name: 'fake', model: 'fake-1' },
  };
}

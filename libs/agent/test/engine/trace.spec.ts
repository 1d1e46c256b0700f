// engine.md §3: TurnResult.trace, one entry per model call and one per tool call.
import { fakeClock, ProviderError } from '@falai/agent';
import { agent, call, model, rounds, T0 } from './support';

describe('TurnResult.trace', () => {
  it('records each model call and each tool call in order, with the clock\'s milliseconds', async () => {
    const clock = fakeClock(T0);
    const provider = model(
      rounds(
        () => (clock.advance(120), { toolCalls: [call('preco', { cidade: 'Curitiba' }), call('x')], usage: { inputTokens: 100, outputTokens: 10 } }),
        () => (clock.advance(80), { text: 'R$ 420', usage: { inputTokens: 150, outputTokens: 5, cachedInputTokens: 100 } }),
      ),
      () => ({ structured: { fields: {} }, usage: { inputTokens: 20, outputTokens: 2 } }),
    );
    const a = agent({
      provider,
      clock,
      fields: { cidade: { type: 'string' } },
      tools: [{ id: 'preco', handler: () => (clock.advance(30), { value: { precoNoite: 420 } }) }],
    });
    const r = await a.turn({ sessionId: 's', message: 'quanto custa?' });
    expect(r.trace).toEqual([
      { type: 'model', call: 'understand', round: 0, ms: 0, usage: { inputTokens: 20, outputTokens: 2 } },
      { type: 'model', call: 'speak', round: 1, ms: 120, usage: { inputTokens: 100, outputTokens: 10 } },
      { type: 'tool', round: 1, index: 0, id: 'call-1-0', tool: 'preco', arguments: { cidade: 'Curitiba' }, gate: 'ok', result: '{"precoNoite":420}', ms: 30 },
      { type: 'tool', round: 1, index: 1, id: 'call-1-1', tool: 'x', arguments: {}, gate: 'unavailable', result: '{"error":"Tool \\"x\\" is not available."}', ms: 0 },
      { type: 'model', call: 'speak', round: 2, ms: 80, usage: { inputTokens: 150, outputTokens: 5, cachedInputTokens: 100 } },
    ]);
    expect(r.usage).toEqual({ inputTokens: 270, outputTokens: 17, cachedInputTokens: 100 });
    expect(r.llmCalls).toBe(3);
  });

  it('records a failed model call with its error', async () => {
    const provider = model(() => {
      throw new ProviderError({ kind: 'rate-limited', message: 'slow down' });
    });
    const r = await agent({ provider }).turn({ sessionId: 's', message: 'oi' });
    expect(r.trace).toEqual([{ type: 'model', call: 'speak', round: 1, ms: 0, error: { kind: 'rate-limited', message: 'slow down' } }]);
    expect(r).not.toHaveProperty('usage');
  });

  it('is never fed back to the model', async () => {
    const provider = model(rounds({ toolCalls: [call('t')] }, { text: 'ok' }));
    const a = agent({ provider, tools: [{ id: 't', handler: () => ({ value: 'v' }) }] });
    const first = await a.turn({ sessionId: 's', message: 'um' });
    await a.turn({ sessionId: 's', message: 'dois', session: first.session });
    expect(JSON.stringify(provider.requests[2])).not.toContain('call-1-0');
  });
});

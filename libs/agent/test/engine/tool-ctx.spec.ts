// tool.md, "ToolCtx fields": context, data, history, run, now.
import type { ToolCtx } from '@falai/agent';
import { agent, call, model, rounds } from './support';

function recorder() {
  const seen: ToolCtx<{ tenant: string }, Record<string, unknown>>[] = [];
  return { seen, tool: (id: string, data?: Record<string, unknown>) => ({ id, handler: (_a: Record<string, unknown>, ctx: ToolCtx<{ tenant: string }, Record<string, unknown>>) => (seen.push(structuredClone(ctx)), data ? { data } : {}) }) };
}

describe('ToolCtx', () => {
  it('context is the host context of this turn', async () => {
    const r = recorder();
    const provider = model(rounds({ toolCalls: [call('t')] }, { text: 'ok' }));
    await agent({ provider, tools: [r.tool('t')] }).turn({ sessionId: 's', message: 'hi', context: { tenant: 'acme' } });
    expect(r.seen[0].context).toEqual({ tenant: 'acme' });
  });

  it('data holds the session fields at the start of the call plus patches of earlier rounds, not of the same round', async () => {
    const r = recorder();
    const provider = model(rounds({ toolCalls: [call('a'), call('b')] }, { toolCalls: [call('c')] }, { text: 'ok' }));
    const a = agent({ provider, tools: [r.tool('a', { x: 1 }), r.tool('b', { y: 2 }), r.tool('c', { x: 3 })] });
    const result = await a.turn({ sessionId: 's', message: 'hi', data: { cidade: 'Curitiba' } });
    expect(r.seen.map((c) => c.data)).toEqual([{ cidade: 'Curitiba' }, { cidade: 'Curitiba' }, { cidade: 'Curitiba', x: 1, y: 2 }]);
    expect(result.session.data).toEqual({ cidade: 'Curitiba', x: 3, y: 2 });
  });

  it('history is the host history for this turn plus the items of earlier rounds in this call', async () => {
    const r = recorder();
    const provider = model(rounds({ toolCalls: [call('a')] }, { toolCalls: [call('b')] }, { text: 'ok' }));
    await agent({ provider, tools: [r.tool('a'), r.tool('b')] }).turn({ sessionId: 's', message: 'hi', history: [{ role: 'assistant', content: 'Olá' }] });
    expect(r.seen[0].history).toEqual([{ role: 'assistant', content: 'Olá' }, { role: 'user', content: 'hi' }]);
    expect(r.seen[1].history).toEqual([
      { role: 'assistant', content: 'Olá' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call-1-0', name: 'a', arguments: {} }] },
      { role: 'tool', tool_call_id: 'call-1-0', name: 'a', content: '{"ok":true}' },
    ]);
  });

  it('run is the run whose talk step is speaking', async () => {
    const r = recorder();
    const provider = model(rounds({ toolCalls: [call('t')] }, { text: 'ok' }));
    const a = agent({ provider, tools: [r.tool('t')], flows: [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'passo', prompt: 'p' }] }] });
    await a.turn({ sessionId: 's', message: 'hi', id: 'm1' });
    expect(r.seen[0].run).toMatchObject({ id: 'f#m1', flowId: 'f', stepId: 'passo', status: 'running' });
  });

  it('run is absent when the idle speaker is the one calling', async () => {
    const r = recorder();
    const provider = model(rounds({ toolCalls: [call('t')] }, { text: 'ok' }));
    await agent({ provider, tools: [r.tool('t')] }).turn({ sessionId: 's', message: 'hi' });
    expect(r.seen[0]).not.toHaveProperty('run');
  });

  it("now is the agent's clock", async () => {
    const r = recorder();
    const provider = model(rounds({ toolCalls: [call('t')] }, { text: 'ok' }));
    const a = agent({ provider, tools: [r.tool('t')] });
    a.clock.set('2031-05-06T07:08:09.000Z');
    await a.turn({ sessionId: 's', message: 'hi' });
    expect(r.seen[0].now.toISOString()).toBe('2031-05-06T07:08:09.000Z');
  });
});

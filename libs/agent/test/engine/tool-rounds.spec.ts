// tool.md, "Rounds" and "Tool rounds in the history": round counts, the wrap-up round, the
// seven-call worst case, failures, history items and their ids.
import { ProviderError, type Tool } from '@falai/agent';
import { WRAP_UP_SECTION } from '../../src/turn/prompts';
import { agent, call, model, rounds, says } from './support';

const ping: Tool = { id: 'ping', handler: () => ({ value: 'pong' }) };
const alwaysCalls = (req: { round: number }) => ({ text: `r${req.round}`, toolCalls: [call('ping')] });

describe('speak rounds', () => {
  it('each of the first maxToolLoops rounds offers the tools; then one round with no tools and a wrap-up section', async () => {
    const provider = model(alwaysCalls);
    const result = await agent({ provider, tools: [ping], maxToolLoops: 3 }).turn({ sessionId: 's', message: 'hi' });
    const speak = provider.calls('speak');
    expect(speak.map((r) => r.round)).toEqual([1, 2, 3, 4]);
    expect(speak.map((r) => r.tools.map((t) => t.name))).toEqual([['ping'], ['ping'], ['ping'], []]);
    // The wrap-up is this round's context, sent last: the system prompt stays the cached prefix.
    expect(speak.slice(0, 3).every((r) => !r.context?.includes(WRAP_UP_SECTION))).toBe(true);
    expect(speak[3].context?.endsWith(WRAP_UP_SECTION)).toBe(true);
    expect(new Set(speak.map((r) => r.system)).size).toBe(1);
    // A message always comes back: the wrap-up round's calls are not run.
    expect(result.messages.map((m) => m.text)).toEqual(['r4']);
    expect(result.trace.filter((t) => t.type === 'tool')).toHaveLength(3);
  });

  it('a text turn costs at most seven model calls with the default maxToolLoops of 5', async () => {
    const provider = model(alwaysCalls, () => ({ structured: { flows: { f: 90 }, fields: {} } }));
    const a = agent({ provider, tools: [ping], flows: [{ id: 'f', name: 'F', on: [{ message: ['oi'] }], steps: [{ id: 'a', prompt: 'fale' }] }] });
    const result = await a.turn({ sessionId: 's', message: 'oi' });
    expect(provider.requests.map((r) => `${r.call}:${r.round}`)).toEqual(['understand:0', 'speak:1', 'speak:2', 'speak:3', 'speak:4', 'speak:5', 'speak:6']);
    expect(result.llmCalls).toBe(7);
    expect(result.outcomes[0]).toMatchObject({ code: 'spoke', llmCalls: 6 });
  });

  it('the loop ends at the first round with no calls, and its message is the reply', async () => {
    const provider = model(rounds({ toolCalls: [call('ping')] }, { text: 'fim' }));
    const result = await agent({ provider, tools: [ping] }).turn({ sessionId: 's', message: 'hi' });
    expect(result.llmCalls).toBe(2);
    expect(result.messages[0].text).toBe('fim');
  });

  it('maxToolLoops: 0 sends no tools at all, whatever the lists say, in one round with no wrap-up', async () => {
    const provider = model(rounds({ text: 'só texto', toolCalls: [call('ping')] }));
    const handler = jest.fn(() => ({}));
    const result = await agent({ provider, tools: [{ id: 'ping', handler }], maxToolLoops: 0, idle: { tools: ['ping'] } }).turn({ sessionId: 's', message: 'hi' });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0].tools).toEqual([]);
    expect(provider.requests[0].context).not.toContain(WRAP_UP_SECTION);
    expect(handler).not.toHaveBeenCalled();
    expect(result.messages[0].text).toBe('só texto');
  });

  it('the model may answer and call tools in one round: the text goes into the assistant item, not the final message', async () => {
    const provider = model(rounds({ text: 'Vou verificar…', toolCalls: [call('ping')] }, { text: 'Pronto.' }));
    const result = await agent({ provider, tools: [ping] }).turn({ sessionId: 's', message: 'hi' });
    expect(result.messages.map((m) => m.text)).toEqual(['Pronto.']);
    expect(provider.requests[1].history[1]).toEqual({ role: 'assistant', content: 'Vou verificar…', tool_calls: [{ id: 'call-1-0', name: 'ping', arguments: {} }] });
  });

  it('records a round as one assistant item with tool_calls (ids call-<round>-<index>) then one tool item per call', async () => {
    const provider = model(
      rounds({ toolCalls: [call('ping', { a: 1 }), call('ping', { b: 2 })] }, { toolCalls: [call('nope')] }, { text: 'ok' }),
    );
    await agent({ provider, tools: [ping] }).turn({ sessionId: 's', message: 'hi', history: [{ role: 'assistant', content: 'Olá' }] });
    expect(provider.requests[2].history).toEqual([
      { role: 'assistant', content: 'Olá' },
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call-1-0', name: 'ping', arguments: { a: 1 } },
          { id: 'call-1-1', name: 'ping', arguments: { b: 2 } },
        ],
      },
      { role: 'tool', tool_call_id: 'call-1-0', name: 'ping', content: 'pong' },
      { role: 'tool', tool_call_id: 'call-1-1', name: 'ping', content: 'pong' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call-2-0', name: 'nope', arguments: {} }] },
      { role: 'tool', tool_call_id: 'call-2-0', name: 'nope', content: '{"error":"Tool \\"nope\\" is not available."}' },
    ]);
  });

  it('round items live only for the speak call: the next turn sees the host history only', async () => {
    const provider = model(rounds({ toolCalls: [call('ping')] }, { text: 'ok' }));
    const a = agent({ provider, tools: [ping] });
    const first = await a.turn({ sessionId: 's', message: 'um' });
    await a.turn({ sessionId: 's', message: 'dois', session: first.session, history: [{ role: 'user', content: 'um' }, { role: 'assistant', content: 'ok' }] });
    expect(provider.requests[2].history).toEqual([
      { role: 'user', content: 'um' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'dois' },
    ]);
    expect(first).not.toHaveProperty('history');
  });

  it('every round is one model call and counts in llmCalls, failed ones included', async () => {
    let n = 0;
    const provider = model((req) => {
      n += 1;
      if (req.round === 2) throw new ProviderError({ kind: 'overloaded', message: 'busy' });
      return { toolCalls: [call('ping')], usage: { inputTokens: 10, outputTokens: 1 } };
    });
    const result = await agent({ provider, tools: [ping] }).turn({ sessionId: 's', message: 'hi' });
    expect(n).toBe(2);
    expect(result.llmCalls).toBe(2);
    // Rounds that completed still count in usage.
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 1 });
  });

  it('a round that fails at the provider defers the idle speaker with one deferred line', async () => {
    const provider = model(() => {
      throw new ProviderError({ kind: 'timeout', message: 'slow' });
    });
    const result = await agent({ provider }).turn({ sessionId: 's', message: 'hi' });
    expect(result.messages).toEqual([]);
    expect(result.schedule).toEqual([]);
    expect(result.outcomes).toEqual([expect.objectContaining({ kind: 'idle', status: 'deferred', code: 'provider-unavailable', llmCalls: 1 })]);
  });

  it('a final message that is empty counts as a failed round', async () => {
    const provider = model(says('   '));
    const result = await agent({ provider }).turn({ sessionId: 's', message: 'hi' });
    expect(result.messages).toEqual([]);
    expect(result.outcomes[0]).toMatchObject({ status: 'deferred', code: 'provider-unavailable', detail: { kind: 'empty' } });
  });

  it('the message is structured.message when the reply parsed, else the reply text', async () => {
    const structured = await agent({ provider: model(() => ({ text: '{"message":"do JSON"}' })) }).turn({ sessionId: 's', message: 'x' });
    expect(structured.messages[0].text).toBe('do JSON');
    const plain = await agent({ provider: model(() => ({ text: 'texto puro' })) }).turn({ sessionId: 's', message: 'x' });
    expect(plain.messages[0].text).toBe('texto puro');
  });
});

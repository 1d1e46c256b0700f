// tool.md, "Which tools the model sees": the allow-list per speaker, `tools: []`, unknown names.
import { FlowConfigurationError, type Flow, type Tool } from '@falai/agent';
import { agent, call, model, rounds, says } from './support';

const tools: Tool[] = ['a', 'b', 'c'].map((id) => ({ id, handler: () => ({}) }));

async function offered(flow: Partial<Flow> & { steps: Flow['steps'] } | undefined, idle?: { tools?: string[] }) {
  const provider = model(says('ok'));
  const flows = flow ? [{ id: 'f', name: 'F', on: [{ message: [] }], ...flow }] : [];
  await agent({ provider, tools, flows, idle }).turn({ sessionId: 's', message: 'hi' });
  return provider.calls('speak')[0].tools.map((t) => t.name);
}

describe('which tools the model sees', () => {
  it('a talk step uses step.tools', async () => {
    expect(await offered({ tools: ['a'], steps: [{ id: 's1', prompt: 'p', tools: ['c'] }] })).toEqual(['c']);
  });

  it('a talk step without tools uses flow.tools', async () => {
    expect(await offered({ tools: ['a', 'b'], steps: [{ id: 's1', prompt: 'p' }] })).toEqual(['a', 'b']);
  });

  it('a talk step with neither uses every tool on the agent', async () => {
    expect(await offered({ steps: [{ id: 's1', prompt: 'p' }] })).toEqual(['a', 'b', 'c']);
  });

  it('the idle speaker uses idle.tools', async () => {
    expect(await offered(undefined, { tools: ['b'] })).toEqual(['b']);
  });

  it('the idle speaker without idle.tools uses every tool on the agent', async () => {
    expect(await offered(undefined, {})).toEqual(['a', 'b', 'c']);
  });

  it('tools: [] on a step means no tools, even when the flow lists some', async () => {
    expect(await offered({ tools: ['a'], steps: [{ id: 's1', prompt: 'p', tools: [] }] })).toEqual([]);
  });

  it('tools: [] on a flow means no tools', async () => {
    expect(await offered({ tools: [], steps: [{ id: 's1', prompt: 'p' }] })).toEqual([]);
  });

  it('tools: [] on idle means no tools', async () => {
    expect(await offered(undefined, { tools: [] })).toEqual([]);
  });

  it('the list keeps the agent\'s tool order, not the list order', async () => {
    expect(await offered({ steps: [{ id: 's1', prompt: 'p', tools: ['c', 'a'] }] })).toEqual(['a', 'c']);
  });

  it('an unknown tool id in a step list throws FlowConfigurationError', () => {
    const flows: Flow[] = [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'oferta', prompt: 'p', tools: ['x'] }] }];
    expect(() => agent({ provider: model(says('ok')), tools, flows })).toThrow(FlowConfigurationError);
    expect(() => agent({ provider: model(says('ok')), tools, flows })).toThrow(/^\[FlowConfigurationError\] flow "f", step "oferta"/);
  });

  it('an unknown tool id in a flow list throws FlowConfigurationError', () => {
    const flows: Flow[] = [{ id: 'f', name: 'F', on: [{ message: [] }], tools: ['x'], steps: [{ id: 's1', prompt: 'p' }] }];
    expect(() => agent({ provider: model(says('ok')), tools, flows })).toThrow(/^\[FlowConfigurationError\] flow "f"/);
  });

  it('an unknown tool id in idle.tools makes the agent constructor throw', () => {
    expect(() => agent({ provider: model(says('ok')), tools, idle: { tools: ['x'] } })).toThrow(FlowConfigurationError);
  });
});

// Prompt caching (docs/cost.md): a round that offers tools also carries the agent's whole tool set
// as `declared`, for providers that narrow the callable ones by name; the allow-list stays `tools`.
describe('the whole tool set beside the allow-list', () => {
  const names = (list: { name: string }[] | undefined) => list?.map((t) => t.name);

  it('a step that allows some tools declares every tool of the agent, in the agent\'s order', async () => {
    const provider = model(says('ok'));
    const flows: Flow[] = [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 's1', prompt: 'p', tools: ['c', 'a'] }] }];
    await agent({ provider, tools, flows }).turn({ sessionId: 's', message: 'hi' });
    const [req] = provider.calls('speak');
    expect([names(req.tools), names(req.declared)]).toEqual([['a', 'c'], ['a', 'b', 'c']]);
  });

  it('no tools means none declared either: tools: [], maxToolLoops: 0 and the wrap-up round', async () => {
    const empty = model(says('ok'));
    await agent({ provider: empty, tools, idle: { tools: [] } }).turn({ sessionId: 's', message: 'hi' });
    const none = model(says('ok'));
    await agent({ provider: none, tools, maxToolLoops: 0 }).turn({ sessionId: 's', message: 'hi' });
    const wrapUp = model(rounds({ toolCalls: [call('a')] }, { structured: { message: 'ok' } }));
    await agent({ provider: wrapUp, tools, maxToolLoops: 1 }).turn({ sessionId: 's', message: 'hi' });
    const requests = [...empty.calls('speak'), ...none.calls('speak'), ...wrapUp.calls('speak')];
    expect(requests.map((r) => [r.round, names(r.tools), names(r.declared)])).toEqual([
      [1, [], undefined],
      [1, [], undefined],
      [1, ['a', 'b', 'c'], ['a', 'b', 'c']],
      [2, [], undefined],
    ]);
  });

  it('a declared tool outside the allow-list that the model calls anyway is refused with tool.md\'s error, and its handler never runs', async () => {
    const ran: string[] = [];
    const tracked: Tool[] = ['a', 'b'].map((id) => ({ id, handler: () => (ran.push(id), { value: id }) }));
    const provider = model(rounds({ toolCalls: [call('b')] }, { structured: { message: 'ok' } }));
    const flows: Flow[] = [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 's1', prompt: 'p', tools: ['a'] }] }];
    const r = await agent({ provider, tools: tracked, flows }).turn({ sessionId: 's', message: 'hi' });
    const round2 = provider.calls('speak')[1];
    expect(names(round2.declared)).toEqual(['a', 'b']);
    expect(round2.history.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call-1-0', name: 'b', content: '{"error":"Tool \\"b\\" is not available."}' });
    expect(ran).toEqual([]);
    expect(r.trace.filter((t) => t.type === 'tool').map((t) => t.type === 'tool' && t.gate)).toEqual(['unavailable']);
  });
});

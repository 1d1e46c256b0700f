// tool.md, "Which tools the model sees": the allow-list per speaker, `tools: []`, unknown names.
import { FlowConfigurationError, type Flow, type Tool } from '@falai/agent';
import { agent, model, says } from './support';

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

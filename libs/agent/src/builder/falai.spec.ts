// falai().fields() / f.flow() / f.agent(): typing (checked by tsc) and construction errors.
import { FlowConfigurationError } from '../definition/errors';
import { ScriptedProvider } from '../scripted';
import type { DataOf, Tool, ToolCall } from '../types';
import { falai } from './falai';

const provider = new ScriptedProvider({ rules: [{ call: 'speak', reply: 'ok' }] });

describe('falai builder', () => {
  const f = falai<{ tenant: string }>().fields({
    cidade: { type: 'string', ask: 'Pergunte a cidade.' },
    hospedes: { type: 'integer' },
    quarto: { type: 'string', enum: ['simples', 'duplo'] },
    confirmado: { type: 'boolean' },
  });

  it('DataOf gives every field optional and read-only, enums as their members', () => {
    type Data = DataOf<typeof f>;
    const data: Data = { cidade: 'Curitiba', hospedes: 2, quarto: 'duplo', confirmado: true };
    // @ts-expect-error a number is not a string field
    const wrong: Data = { cidade: 3 };
    // @ts-expect-error not a member of the enum
    const outside: Data = { quarto: 'presidencial' };
    // @ts-expect-error read-only
    data.cidade = 'Recife';
    expect([wrong, outside]).toHaveLength(2);
    expect(f.fields.cidade.ask).toBe('Pergunte a cidade.');
  });

  it('f.flow checks collect and ask against the field slugs, and returns the flow as given', () => {
    const flow = { id: 'h', name: 'H', steps: [{ id: 'onde', collect: ['cidade' as const], ask: { cidade: 'Onde?' } }] };
    expect(f.flow(flow)).toBe(flow);
    // @ts-expect-error "sobrenome" is not a field
    f.flow({ id: 'x', name: 'X', steps: [{ id: 's', collect: ['sobrenome'] }] });
  });

  it('f.agent builds an agent with turn and turnStream', () => {
    const agent = f.agent({ name: 'A', provider, tools: [], flows: [] });
    expect(agent.name).toBe('A');
    expect(typeof agent.turn).toBe('function');
    expect(typeof agent.turnStream).toBe('function');
  });

  it('tools typed for the data and plain tools fit one list', () => {
    const typed: Tool<undefined, DataOf<typeof f>> = { id: 'a', handler: () => ({ data: { hospedes: 2 } }) };
    const plain: Tool = { id: 'b', handler: () => ({}) };
    expect(() => f.agent({ name: 'A', provider, tools: [typed, plain], flows: [] })).not.toThrow();
  });

  it('f.agent throws FlowConfigurationError for every error validateFlow finds', () => {
    const build = () =>
      f.agent({ name: 'A', provider, tools: [], flows: [f.flow({ id: 'h', name: 'H', steps: [{ id: 'a', prompt: 'p', then: 'nowhere' }] })] });
    expect(build).toThrow(FlowConfigurationError);
    expect(build).toThrow(/^\[FlowConfigurationError\] flow "h", step "a": .+\. .+\.$/);
  });

  it('f.agent refuses a tool whose parameters are the shorthand map', () => {
    const tool = { id: 'preco', parameters: { cidade: { type: 'string' } }, handler: () => ({}) } as unknown as Tool;
    expect(() => f.agent({ name: 'A', provider, tools: [tool], flows: [] })).toThrow(FlowConfigurationError);
  });

  it('f.agent refuses an idle.tools id that is not a registered tool', () => {
    expect(() => f.agent({ name: 'A', provider, tools: [], flows: [], idle: { tools: ['nope'] } })).toThrow(/FlowConfigurationError/);
  });

  it('exports the event-style ToolCall record of tool.md', () => {
    const record: ToolCall<{ cidade: string }, { precoNoite: number }> = {
      tool_id: 'preco',
      arguments: { cidade: 'Curitiba' },
      result: { data: { precoNoite: 420 }, meta: { ms: 12 } },
    };
    expect(record.result.data.precoNoite).toBe(420);
  });
});

// tool.md, "Tool fields" and "ToolResult fields": one test per row.
import { FlowConfigurationError, type Tool } from '@falai/agent';
import { agent, call, model, rounds, says, toolItems } from './support';

async function run(tools: Tool[], calls: ReturnType<typeof call>[], extra: Partial<Parameters<typeof agent>[0]> = {}) {
  const provider = model(rounds({ toolCalls: calls }, { text: 'done' }));
  const a = agent({ provider, tools, ...extra });
  const result = await a.turn({ sessionId: 's', message: 'hi' });
  return { provider, result, reads: provider.requests[1] ? toolItems(provider.requests[1]).map((i) => i.content) : [] };
}

describe('tool fields', () => {
  it('id: the name the model calls and the name a tools list points at', async () => {
    const { provider, reads } = await run([{ id: 'preco', handler: () => ({ value: 420 }) }], [call('preco')]);
    expect(provider.requests[0].tools.map((t) => t.name)).toEqual(['preco']);
    expect(reads).toEqual(['420']);
  });

  it('id: two tools with one id are both sent, and the first one\'s handler runs', async () => {
    const first = jest.fn(() => ({ value: 'first' }));
    const second = jest.fn(() => ({ value: 'second' }));
    const { provider, reads } = await run(
      [
        { id: 'dup', description: 'one', handler: first },
        { id: 'dup', description: 'two', handler: second },
      ],
      [call('dup'), call('dup')],
    );
    expect(provider.requests[0].tools).toEqual([
      { name: 'dup', description: 'one' },
      { name: 'dup', description: 'two' },
    ]);
    expect(reads).toEqual(['first', 'first']);
    expect(second).not.toHaveBeenCalled();
  });

  it('description: what the model reads about the tool', async () => {
    const { provider } = await run([{ id: 'preco', description: 'Preço da diária em uma cidade.', handler: () => ({}) }], []);
    expect(provider.requests[0].tools[0]).toEqual({ name: 'preco', description: 'Preço da diária em uma cidade.' });
  });

  it('parameters: a JSON Schema object passed to the provider as given', async () => {
    const parameters = { type: 'object' as const, properties: { cidade: { type: 'string' } }, required: ['cidade'] };
    const { provider } = await run([{ id: 'preco', parameters, handler: () => ({}) }], []);
    expect(provider.requests[0].tools[0].parameters).toEqual(parameters);
  });

  it('parameters: f.agent() rejects the shorthand map', () => {
    const shorthand = { id: 'preco', parameters: { cidade: { type: 'string' } }, handler: () => ({}) } as unknown as Tool;
    expect(() => agent({ provider: model(says('x')), tools: [shorthand] })).toThrow(FlowConfigurationError);
    expect(() => agent({ provider: model(says('x')), tools: [shorthand] })).toThrow(/^\[FlowConfigurationError\] tool "preco"/);
  });

  it('handler: returning nothing counts as {} and the model reads {"ok":true}', async () => {
    const { reads, result } = await run([{ id: 'noop', handler: () => undefined }], [call('noop')]);
    expect(reads).toEqual(['{"ok":true}']);
    expect(result.session.data).toEqual({});
  });

  it('handler: receives the arguments the model sent', async () => {
    const handler = jest.fn((_args: Record<string, unknown>) => ({}));
    await run([{ id: 't', handler }], [call('t', { cidade: 'Curitiba', noites: 2 })]);
    expect(handler.mock.calls[0][0]).toEqual({ cidade: 'Curitiba', noites: 2 });
  });

  it('maxResultSizeChars: the value is cut and ends with the truncation notice', async () => {
    const { reads } = await run([{ id: 'long', maxResultSizeChars: 10, handler: () => ({ value: 'abcdefghijklmnopqrstuvwxyz' }) }], [call('long')]);
    expect(reads).toEqual(['abcdefghij[truncated: 26 chars total, showing the first 10]']);
  });

  it('maxResultSizeChars: a value within the limit is not cut', async () => {
    const { reads } = await run([{ id: 'short', maxResultSizeChars: 10, handler: () => ({ value: 'abcdefghij' }) }], [call('short')]);
    expect(reads).toEqual(['abcdefghij']);
  });

  it('maxResultSizeChars: counts the serialized JSON of a non-string value', async () => {
    const { reads } = await run([{ id: 'obj', maxResultSizeChars: 5, handler: () => ({ value: { precoNoite: 420 } }) }], [call('obj')]);
    expect(reads).toEqual(['{"pre[truncated: 18 chars total, showing the first 5]']);
  });

  it('maxResultSizeChars: none set means no cut', async () => {
    const long = 'x'.repeat(50_000);
    const { reads } = await run([{ id: 'big', handler: () => ({ value: long }) }], [call('big')]);
    expect(reads).toEqual([long]);
  });
});

describe('ToolResult fields', () => {
  it('value: a string is read as is', async () => {
    const { reads } = await run([{ id: 't', handler: () => ({ value: 'R$ 420' }) }], [call('t')]);
    expect(reads).toEqual(['R$ 420']);
  });

  it('value: anything else goes through JSON.stringify', async () => {
    const { reads } = await run(
      [
        { id: 'n', handler: () => ({ value: 420 }) },
        { id: 'b', handler: () => ({ value: false }) },
        { id: 'z', handler: () => ({ value: null }) },
        { id: 'a', handler: () => ({ value: [1, 'dois'] }) },
      ],
      [call('n'), call('b'), call('z'), call('a')],
    );
    expect(reads).toEqual(['420', 'false', 'null', '[1,"dois"]']);
  });

  it('value: undefined is read as {"ok":true}', async () => {
    const { reads } = await run([{ id: 't', handler: () => ({ data: { x: 1 } }) }], [call('t')]);
    expect(reads).toEqual(['{"ok":true}']);
  });

  it('data: merged into the session when the turn settles, as given: no coercion, no enum check', async () => {
    const { result } = await run(
      [{ id: 't', handler: () => ({ data: { hospedes: '3', quarto: 'presidencial' } }) }],
      [call('t')],
      { fields: { hospedes: { type: 'integer' }, quarto: { type: 'string', enum: ['simples', 'duplo'] } } },
    );
    expect(result.session.data).toEqual({ hospedes: '3', quarto: 'presidencial' });
  });

  it('data: a field a collect step waits for counts as known once a tool writes it, so the step ends', async () => {
    const provider = model(rounds({ toolCalls: [call('reservar')] }, { text: 'Reservado: RES-1' }));
    const a = agent({
      provider,
      fields: { reserva: { type: 'string' } },
      tools: [{ id: 'reservar', handler: () => ({ value: 'RES-1', data: { reserva: 'RES-1' } }) }],
      flows: [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'confirma', collect: ['reserva'] }, { id: 'fim', say: 'Obrigado!' }] }],
    });
    const result = await a.turn({ sessionId: 's', message: 'reserva' });
    expect(result.messages.map((m) => m.text)).toEqual(['Reservado: RES-1', 'Obrigado!']);
    expect(result.ended.map((r) => r.reason)).toEqual(['completed']);
    expect(result.outcomes.map((o) => o.code)).toEqual(['asked', 'collected', 'said']);
  });
});

// engine.md §3 and tool.md "Streaming": turnStream yields each round's text as it arrives, then
// one { done, result } equal to what turn returns.
import { conciergeScript, ProviderError, ScriptedProvider, type TurnChunk, type TurnResult } from '@falai/agent';
import { agent, call, model, rounds, says } from './support';

async function collect(stream: AsyncIterable<TurnChunk>): Promise<{ deltas: string[]; result: TurnResult }> {
  const deltas: string[] = [];
  for await (const chunk of stream) {
    if ('delta' in chunk) deltas.push(chunk.delta);
    else return { deltas, result: chunk.result };
  }
  throw new Error('stream ended without a result');
}

function concierge() {
  const provider = new ScriptedProvider({ rules: conciergeScript });
  return agent({
    provider,
    fields: { cidade: { type: 'string' }, reserva: { type: 'string' } },
    tools: [
      { id: 'preco', handler: () => ({ value: { precoNoite: 420 } }) },
      { id: 'reservar', isDestructive: () => true, handler: (_a, ctx) => ({ value: { codigo: `RES-${ctx.now.getTime()}` }, data: { reserva: `RES-${ctx.now.getTime()}` } }) },
    ],
    flows: [
      {
        id: 'hospedagem',
        name: 'Hospedagem',
        on: [{ message: ['quer reservar um quarto'] }],
        steps: [
          { id: 'onde', collect: ['cidade'] },
          { id: 'oferta', prompt: 'Apresente o preço.', tools: ['preco'] },
          { id: 'confirma', prompt: 'Reserve.', collect: ['reserva'], tools: ['reservar'] },
        ],
      },
    ],
  });
}

describe('turnStream', () => {
  it('yields the reply as deltas, then a result equal to what turn returns', async () => {
    const streamed = concierge();
    const plain = concierge();
    for (const [message, id] of [['Quero um quarto em Curitiba', 'm1'], ['Sim, pode reservar', 'm2']]) {
      const { deltas, result } = await collect(streamed.turnStream({ sessionId: 's', message, id }));
      const expected = await plain.turn({ sessionId: 's', message, id });
      expect(result).toEqual(expected);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe(expected.messages[0].text);
    }
  });

  it('text the model writes beside a tool call reaches the stream but not the final message', async () => {
    const provider = model(rounds({ text: 'Consultando… ', toolCalls: [call('ping')] }, { text: 'Pronto.' }));
    const a = agent({ provider, tools: [{ id: 'ping', handler: () => ({}) }] });
    const { deltas, result } = await collect(a.turnStream({ sessionId: 's', message: 'oi' }));
    expect(deltas.join('')).toBe('Consultando… Pronto.');
    expect(result.messages.map((m) => m.text)).toEqual(['Pronto.']);
  });

  it('a provider without stream() still streams: one delta per round', async () => {
    const provider = model(says('inteiro'));
    const plain = { name: 'plain', model: 'm', generate: provider.generate.bind(provider) };
    const a = agent({ provider: plain as unknown as ScriptedProvider });
    const { deltas, result } = await collect(a.turnStream({ sessionId: 's', message: 'oi' }));
    expect(deltas).toEqual(['inteiro']);
    expect(result.messages[0].text).toBe('inteiro');
  });

  it('a silent turn yields only the result', async () => {
    const chunks: TurnChunk[] = [];
    for await (const c of agent({ provider: model(says('x')), idle: 'silent' }).turnStream({ sessionId: 's', message: 'oi' })) chunks.push(c);
    expect(chunks).toEqual([{ done: true, result: expect.objectContaining({ messages: [] }) }]);
  });

  it('a failed understand call makes the stream throw ProviderError, as turn does', async () => {
    const provider = model(says('x'), () => {
      throw new ProviderError({ kind: 'auth', message: 'bad key' });
    });
    const a = agent({ provider, fields: { cidade: { type: 'string' } } });
    await expect(collect(a.turnStream({ sessionId: 's', message: 'oi' }))).rejects.toMatchObject({ kind: 'auth' });
  });

  it('a deferred step streams nothing and returns the same deferral as turn', async () => {
    const failing = () =>
      model(() => {
        throw new ProviderError({ kind: 'overloaded', message: 'busy' });
      });
    const flows = [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'p', prompt: 'p' }] }];
    const { deltas, result } = await collect(agent({ provider: failing(), flows }).turnStream({ sessionId: 's', message: 'oi', id: 'm' }));
    const expected = await agent({ provider: failing(), flows }).turn({ sessionId: 's', message: 'oi', id: 'm' });
    expect(deltas).toEqual([]);
    expect(result).toEqual(expected);
  });
});

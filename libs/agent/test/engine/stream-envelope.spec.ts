// A structured speak round arrives as a JSON envelope; turnStream must stream only the text of
// its `message`, never the JSON (a host streams deltas straight to customers).
import { OpenAIProvider, type TurnChunk, type TurnResult } from '@falai/agent';
import { FakeOpenAIServer } from '../fakes/fake-openai-server';
import { agent, call, model, rounds } from './support';

jest.setTimeout(30_000);

async function collect(stream: AsyncIterable<TurnChunk>): Promise<{ deltas: string[]; result: TurnResult }> {
  const deltas: string[] = [];
  for await (const chunk of stream) {
    if ('delta' in chunk) deltas.push(chunk.delta);
    else return { deltas, result: chunk.result };
  }
  throw new Error('stream ended without a result');
}

const flows = [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'onde', collect: ['cidade'] }] }];
const json = (message: string, extra: Record<string, unknown> = {}) => JSON.stringify({ message, ...extra });

describe('turnStream with a JSON envelope', () => {
  it('ScriptedProvider streaming the envelope word by word: deltas carry only the message text', async () => {
    const text = json('A diária é "R$ 420". Em qual cidade?', { cidade: null });
    const make = () => agent({ provider: model(() => ({ text })), fields: { cidade: { type: 'string' } }, flows });
    const { deltas, result } = await collect(make().turnStream({ sessionId: 's', message: 'oi', id: 'm1' }));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('A diária é "R$ 420". Em qual cidade?');
    for (const d of deltas) expect(d).not.toMatch(/[{}]|"message"/);
    expect(result).toEqual(await make().turn({ sessionId: 's', message: 'oi', id: 'm1' }));
    expect(result.messages[0].text).toBe('A diária é "R$ 420". Em qual cidade?');
  });

  it('text beside a tool call, in an envelope, reaches the stream but not the final message', async () => {
    const provider = model(rounds({ text: json('Consultando… '), toolCalls: [call('ping')] }, { text: json('Pronto.') }));
    const a = agent({ provider, tools: [{ id: 'ping', handler: () => ({}) }] });
    const { deltas, result } = await collect(a.turnStream({ sessionId: 's', message: 'oi' }));
    expect(deltas.join('')).toBe('Consultando… Pronto.');
    expect(result.messages.map((m) => m.text)).toEqual(['Pronto.']);
  });

  it('OpenAIProvider against the fake Chat Completions server: no JSON in the deltas, result equals turn()', async () => {
    const reply = (body: { response_format?: { json_schema?: { name?: string } } }) =>
      body.response_format?.json_schema?.name === 'understand'
        ? { reply: { content: JSON.stringify({ fields: { cidade: null } }) } }
        : { reply: { content: json('A diária em Curitiba sai por R$ 420. Posso reservar?', { cidade: null }) } };
    const server = await FakeOpenAIServer.start(reply);
    try {
      const make = () =>
        agent({
          provider: new OpenAIProvider({ apiKey: 'sk-test', model: 'gpt-4.1-mini', baseURL: server.baseURL }) as never,
          fields: { cidade: { type: 'string' } },
          flows,
        });
      const { deltas, result } = await collect(make().turnStream({ sessionId: 's', message: 'oi', id: 'm1' }));
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe('A diária em Curitiba sai por R$ 420. Posso reservar?');
      for (const d of deltas) expect(d).not.toMatch(/[{}]/);
      const plain = await make().turn({ sessionId: 's', message: 'oi', id: 'm1' });
      expect(result).toEqual(plain);
    } finally {
      await server.close();
    }
  });
});

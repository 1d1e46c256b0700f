// Prompt caching (docs/cost.md): OpenAI and Gemini get the agent's whole tool set on every round
// that offers tools, and the step's allow-list through their own mechanism (allowed_tools,
// allowedFunctionNames). The allow-list still holds: a model that calls a declared tool outside it
// is refused by the engine with tool.md's error, and the tool's handler never runs.
import type { TurnResult } from '@falai/agent';
import { GeminiProvider, OpenAIProvider } from '../../src/providers';
import { buildConcierge } from './concierge-agent';
import { FakeGeminiServer } from '../fakes/fake-gemini-server';
import { FakeOpenAIServer } from '../fakes/fake-openai-server';
import { fastRetry } from './requests';

// Real HTTP servers and SDKs: allow for a busy CI machine (the default is 5 s per test).
jest.setTimeout(30_000);

const UNDERSTOOD = JSON.stringify({ flows: { hospedagem: 90 }, fields: { cidade: 'Curitiba', reserva: null } });
const REFUSED = '{"error":"Tool \\"reservar\\" is not available."}';

/** At the `oferta` step only `preco` is allowed; the model calls `reservar` anyway. */
function expectRefused(r: TurnResult) {
  expect(r.trace.filter((t) => t.type === 'tool').map((t) => t.type === 'tool' && [t.tool, t.gate, t.result])).toEqual([['reservar', 'unavailable', REFUSED]]);
  // The handler would have written `reserva`.
  expect(r.session.data).toEqual({ cidade: 'Curitiba' });
  expect(r.messages.map((m) => m.text)).toEqual(['A diária sai por R$ 420.']);
}

describe('the step allow-list through the providers\' own mechanism', () => {
  it('OpenAI: both tools declared, allowed_tools lists preco, and a call to reservar is refused', async () => {
    const server = await FakeOpenAIServer.start([
      { reply: { content: UNDERSTOOD } },
      { reply: { toolCalls: [{ id: 'call_x', name: 'reservar', arguments: '{"cidade":"Curitiba"}' }] } },
      { reply: { content: '{"message":"A diária sai por R$ 420."}' } },
    ]);
    try {
      const agent = buildConcierge(new OpenAIProvider({ apiKey: 'sk-test', model: 'gpt-4.1-mini', baseURL: server.baseURL, allowedTools: true, retry: fastRetry }));
      const r = await agent.turn({ sessionId: 's', message: 'Quero um quarto em Curitiba' });
      const round1 = server.bodies[1];
      expect(round1.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['preco', 'reservar']);
      expect(round1.tool_choice).toEqual({ type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'preco' } }] } });
      expect(server.bodies[2].messages.find((m: { role: string }) => m.role === 'tool')).toEqual({ role: 'tool', tool_call_id: 'call-1-0', content: REFUSED });
      expectRefused(r);
    } finally {
      await server.close();
    }
  });

  it('Gemini: both functions declared, VALIDATED mode allows preco, and a call to reservar is refused', async () => {
    const server = await FakeGeminiServer.start([
      { reply: { parts: [{ text: UNDERSTOOD }] } },
      { reply: { parts: [{ functionCall: { name: 'reservar', args: { cidade: 'Curitiba' } } }] } },
      { reply: { parts: [{ text: '{"message":"A diária sai por R$ 420."}' }] } },
    ]);
    try {
      const agent = buildConcierge(new GeminiProvider({ apiKey: 'g-test', model: 'gemini-2.5-flash', baseUrl: server.baseUrl, retry: fastRetry }));
      const r = await agent.turn({ sessionId: 's', message: 'Quero um quarto em Curitiba' });
      const round1 = server.bodies[1];
      expect(round1.tools[0].functionDeclarations.map((d: { name: string }) => d.name)).toEqual(['preco', 'reservar']);
      expect(round1.toolConfig).toEqual({ functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['preco'] } });
      const answered = server.bodies[2].contents.at(-1).parts[0];
      expect(answered).toEqual({ functionResponse: { name: 'reservar', response: { error: 'Tool "reservar" is not available.' } } });
      expectRefused(r);
    } finally {
      await server.close();
    }
  });
});

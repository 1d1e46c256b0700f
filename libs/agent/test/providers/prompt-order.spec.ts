// Prompt caching (docs/cost.md): every request puts what stays the same first (system prompt,
// tools, reply schema) and what changes per turn last, after the history, so a provider's prefix
// cache can reuse everything before it.
import { ScriptedProvider, conciergeScript } from '../../src';
import { toGeminiRequest } from '../../src/providers/gemini/map-request';
import { ThoughtSignatures } from '../../src/providers/gemini/thought-signatures';
import { toChatCompletionBody } from '../../src/providers/openai/map-request';
import { buildConcierge } from './concierge-agent';
import { precoTool, speak } from './requests';

const request = speak({
  tools: [precoTool],
  schema: { name: 'reply', schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
  history: [
    { role: 'user', content: 'Quero um quarto em Curitiba' },
    { role: 'assistant', content: 'Em qual data?' },
    { role: 'user', content: 'Amanhã' },
  ],
  context: 'Known fields: {"cidade":"Curitiba"}',
});
const openai = (contextAt: 'last' | 'system') => toChatCompletionBody(request, { model: 'gpt-4.1-mini', responseFormat: 'json_schema', strictSchema: false, contextAt, allowedTools: contextAt === 'last' });

describe('the stable part of a request comes first, what changes per turn last', () => {
  it('OpenAI: the system prompt leads the messages, the history follows, the turn context is the last message', () => {
    const body = openai('last');
    expect(body.messages.map((m) => [m.role, m.content])).toEqual([
      ['system', 'Você é o Concierge de um hotel.'],
      ['user', 'Quero um quarto em Curitiba'],
      ['assistant', 'Em qual data?'],
      ['user', 'Amanhã'],
      ['system', 'Known fields: {"cidade":"Curitiba"}'],
    ]);
    expect(body.tools?.map((t) => (t.type === 'function' ? t.function.name : t.type))).toEqual(['preco']);
    expect(body.response_format).toMatchObject({ type: 'json_schema' });
  });

  it('an OpenAI-compatible server gets the context at the end of the one leading system message', () => {
    const body = openai('system');
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Você é o Concierge de um hotel.\n\nKnown fields: {"cidade":"Curitiba"}' });
    expect(body.messages.slice(1).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it("Gemini: system instruction and tools in config; the context, then the step's schema in words, end the last user turn", () => {
    const body = toGeminiRequest(request, { model: 'gemini-2.5-flash', signatures: new ThoughtSignatures(), requiresSignatures: false });
    expect(body.config.systemInstruction).toBe('Você é o Concierge de um hotel.');
    expect(body.contents.map((c) => [c.role, c.parts?.map((p) => p.text?.split('\n')[0])])).toEqual([
      ['user', ['Quero um quarto em Curitiba']],
      ['model', ['Em qual data?']],
      ['user', ['Amanhã', 'Known fields: {"cidade":"Curitiba"}']],
    ]);
    expect(body.contents[2].parts?.[1].text).toContain('"required":["message"]');
  });

  it('the engine keeps one system prompt across rounds, turns and steps, and puts the step and the known fields in the context', async () => {
    const provider = new ScriptedProvider({ rules: conciergeScript });
    const agent = buildConcierge(provider);
    const first = await agent.turn({ sessionId: 's', message: 'Quero um quarto em Curitiba' });
    await agent.turn({ sessionId: 's', session: first.session, message: 'Sim, pode reservar' });
    const speaks = provider.calls('speak');
    expect(speaks.map((r) => [r.system.includes('Known fields'), r.context?.includes('Known fields')])).toEqual(speaks.map(() => [false, true]));
    // Every speak call of the agent sends the same system prompt; the step's prompt is in the context.
    expect(new Set(speaks.map((r) => r.system)).size).toBe(1);
    for (const tools of ['preco', 'reservar']) expect(speaks.filter((r) => r.tools.map((t) => t.name).join() === tools).length).toBeGreaterThan(0);
    expect(speaks.find((r) => r.tools.some((t) => t.name === 'reservar'))?.context).toContain('## Now\nSe a pessoa confirmou, reserve e informe o código.');
    expect(speaks.find((r) => r.tools.some((t) => t.name === 'reservar'))?.context).toContain('Known fields: {"cidade":"Curitiba"}');
  });
});

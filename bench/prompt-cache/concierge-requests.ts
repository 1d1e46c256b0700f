import { conciergeScript, ScriptedProvider, type HistoryItem, type ModelRequest, type Tool } from '@falai/agent';
import { buildEngineAgent, conciergeAgentConfig } from '@switchboard/agent-config';

// The Concierge (the demo's agent, libs/agent-config) through a whole conversation with the
// offline scripted model, to collect the model requests its turns send: a greeting (idle
// speaker), a booking request, the city (price lookup with a tool round), the confirmation
// (booking with a tool round), and a thank-you after the flow ended. Each turn gets the
// conversation before it as history, as the worker passes it (its committed messages in order).

export const CONCIERGE_CONVERSATION = ['Oi, bom dia', 'Quero reservar um quarto', 'Curitiba', 'Sim, pode reservar', 'Obrigado!'];

const preco: Tool = {
  id: 'preco',
  description: 'Preço da diária em uma cidade.',
  parameters: { type: 'object', properties: { cidade: { type: 'string' } }, required: ['cidade'] },
  handler: () => ({ value: { precoNoite: 420 } }),
};
const reservar: Tool = {
  id: 'reservar',
  description: 'Confirma a reserva e devolve o código.',
  parameters: { type: 'object', properties: { cidade: { type: 'string' } }, required: ['cidade'] },
  handler: () => ({ value: { codigo: 'RES-BENCH' }, data: { reserva: 'RES-BENCH' } }),
};

/** Every model request of the conversation, in the order sent. */
export async function conciergeRequests(messages: readonly string[] = CONCIERGE_CONVERSATION): Promise<ModelRequest[]> {
  const provider = new ScriptedProvider({ rules: conciergeScript });
  const agent = buildEngineAgent(conciergeAgentConfig, { tools: [preco, reservar], provider });
  let session: unknown;
  const history: HistoryItem[] = [];
  for (const [i, message] of messages.entries()) {
    const result = await agent.turn({ sessionId: 'bench', message, id: `m${i}`, history: [...history], ...(session ? { session: session as never } : {}) });
    session = result.session;
    history.push({ role: 'user', content: message }, ...result.messages.map((m) => ({ role: 'assistant' as const, content: m.text })));
  }
  return provider.requests;
}

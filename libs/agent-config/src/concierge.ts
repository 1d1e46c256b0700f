import { conciergeScript, type FlowSpec } from '@falai/agent';
import type { AgentConfig } from './agent-config';

/** The `hospedagem` flow of tool.md's example, as the FlowSpec JSON the console edits. */
export const hospedagemFlowSpec: FlowSpec = {
  id: 'hospedagem',
  name: 'Hospedagem',
  on: [{ message: ['quer reservar um quarto'] }],
  steps: [
    { id: 'onde', kind: 'collect', collect: ['cidade'] },
    // Only this step may call `preco`.
    { id: 'oferta', kind: 'prompt', prompt: 'Apresente o preço da diária. Pergunte se pode reservar.', tools: ['preco'] },
    {
      id: 'confirma',
      kind: 'collect',
      prompt: 'Se a pessoa confirmou, reserve e informe o código.',
      collect: ['reserva'],
      tools: ['reservar'],
    },
  ],
};

/**
 * The Concierge agent of tool.md's example as a stored AgentConfig: fields `cidade` and
 * `reserva`, the `hospedagem` flow, the worker's `preco` and `reservar` tools, and the offline
 * scripted provider playing the model (the seed swaps in a real model when a key is set).
 */
export const conciergeAgentConfig: AgentConfig = {
  name: 'Concierge',
  fields: {
    cidade: { type: 'string', ask: 'Pergunte em qual cidade a pessoa quer ficar.' },
    reserva: { type: 'string', description: 'Código da reserva' },
  },
  flows: [hospedagemFlowSpec],
  tools: ['preco', 'reservar'],
  provider: { kind: 'scripted', model: 'concierge-script', scripted: conciergeScript },
  // Outside the flow the Concierge only talks: `preco` belongs to the oferta step, which knows the
  // city (offered in idle, a plain "Oi" made the model quote a price for no city, with blanks).
  idle: { tools: [] },
  fallbackMessage: 'Desculpe, não consigo responder agora. Tente novamente em alguns minutos.',
  doubleTexting: { policy: 'sequential' },
};

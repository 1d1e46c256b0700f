import type { AgentConfig } from '@switchboard/agent-config';

// One agent for the flow tests, played offline by the scripted provider: only the understand
// call is scripted (it routes "reservar" and "pedido"); every step the flows run is a say, wait,
// do or if step, so no speak call is ever needed, and the idle speaker is silent.

export const FOLLOW_UP = {
  ask: 'Posso ajudar com a reserva?',
  followUp: 'Ainda está por aí?',
  thanks: 'Obrigado pela resposta!',
  waitingPayment: 'Aguardando o pagamento.',
  paid: 'Pagamento aprovado!',
  bye: 'Até logo!',
} as const;

export const flowAgentConfig: AgentConfig = {
  name: 'Flows',
  fields: { cidade: { type: 'string' }, reserva: { type: 'string' } },
  idle: 'silent',
  tools: [],
  provider: {
    kind: 'scripted',
    model: 'flows-script',
    scripted: {
      rules: [
        { call: 'understand', match: 'reservar', flows: { acompanhamento: 90 } },
        { call: 'understand', match: 'pedido', flows: { pedido: 90 } },
      ],
    },
  },
  flows: [
    {
      // Waits 2 s for a reply: none → the delayed wake job sends the follow-up; a reply → `else`.
      id: 'acompanhamento',
      name: 'Acompanhamento',
      on: [{ message: ['quero reservar'] }],
      steps: [
        { id: 'pergunta', kind: 'say', say: FOLLOW_UP.ask },
        { id: 'espera', kind: 'wait', wait: '2s', then: 'cutuca', else: 'obrigado' },
        { id: 'cutuca', kind: 'say', say: FOLLOW_UP.followUp, then: 'end' },
        { id: 'obrigado', kind: 'say', say: FOLLOW_UP.thanks },
      ],
    },
    {
      // Waits for an event reported with POST /v1/events.
      id: 'pedido',
      name: 'Pedido',
      on: [{ message: ['meu pedido'] }],
      steps: [
        { id: 'aguarda', kind: 'say', say: FOLLOW_UP.waitingPayment },
        { id: 'pagamento', kind: 'wait', wait: { event: 'pagamento.aprovado', upTo: '1h' }, then: 'pago' },
        { id: 'pago', kind: 'say', say: FOLLOW_UP.paid },
      ],
    },
    {
      // No trigger: started with POST /v1/sessions/:id/start. Runs the worker's confirm_booking
      // action, then a short wait that becomes the goodbye's afterMs.
      id: 'confirmar',
      name: 'Confirmar reserva',
      steps: [
        { id: 'reserva', kind: 'do', do: 'confirm_booking', with: { cidade: 'Lisboa' } },
        { id: 'pausa', kind: 'wait', wait: '1s' },
        { id: 'tchau', kind: 'say', say: FOLLOW_UP.bye },
      ],
    },
  ],
} as AgentConfig;

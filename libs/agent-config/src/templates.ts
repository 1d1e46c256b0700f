import type { AgentConfig } from './agent-config';
import { conciergeAgentConfig } from './concierge';

/** A starting point for a new agent: a complete, publishable config the tenant then edits. */
export interface AgentTemplate {
  id: 'concierge' | 'faq' | 'lead-capture';
  name: string;
  description: string;
  config: AgentConfig;
}

// Templates other than the Concierge run on a hosted model: a scripted provider only answers
// what its script says. gpt-4o-mini is the cheapest model the platform's own key serves; the
// tenant may switch provider before publishing (publish says so when no key would serve it).
const hosted = { kind: 'openai', model: 'gpt-4o-mini' } as const;

const faqConfig: AgentConfig = {
  name: 'FAQ bot',
  instructions:
    'You answer customers’ questions about the business from the facts below, briefly and politely. ' +
    'When the answer is not in the facts, say you do not know and offer to hand the conversation to a person. ' +
    'Never invent prices, dates or policies.\n\nFacts:\n- Opening hours: Monday to Friday, 9:00–18:00.\n- Support email: support@example.com',
  provider: hosted,
  fields: {},
  flows: [],
  tools: [],
  fallbackMessage: 'Sorry, I cannot answer right now. Please try again in a few minutes.',
  doubleTexting: { policy: 'merge', mergeWindowMs: 1500 },
};

const leadCaptureConfig: AgentConfig = {
  name: 'Lead capture',
  instructions: 'You help people who are interested in buying. Be brief and friendly; collect their details one at a time.',
  provider: hosted,
  fields: {
    name: { type: 'string', label: 'Name', ask: 'Ask for the person’s name.' },
    email: { type: 'string', label: 'Email', ask: 'Ask for an email address to reach them.' },
    company: { type: 'string', label: 'Company', ask: 'Ask which company they are with.' },
    interest: { type: 'string', label: 'Interest', description: 'What they want to buy or know about' },
  },
  flows: [
    {
      id: 'lead',
      name: 'Capture a lead',
      on: [{ message: ['wants a quote', 'asks about prices or plans', 'wants to talk to sales'] }],
      steps: [
        { id: 'details', kind: 'collect', collect: ['interest', 'name', 'email', 'company'] },
        { id: 'thanks', kind: 'prompt', prompt: 'Thank the person by name and say someone from sales will email them within one business day.' },
      ],
    },
  ],
  tools: [],
  fallbackMessage: 'Sorry, I cannot answer right now. Please leave your email and we will get back to you.',
  doubleTexting: { policy: 'sequential' },
};

/** The agent templates the console offers when creating an agent (GET /v1/admin/agent-templates). */
export const agentTemplates: readonly AgentTemplate[] = [
  {
    id: 'concierge',
    name: 'Concierge',
    description: 'The hotel concierge of the demo: asks the city, quotes a nightly price and books (tools preco and reservar; offline scripted model).',
    config: conciergeAgentConfig,
  },
  { id: 'faq', name: 'FAQ bot', description: 'Answers questions from facts you write in its instructions; says so when it does not know.', config: faqConfig },
  {
    id: 'lead-capture',
    name: 'Lead capture',
    description: 'When someone asks about prices or sales, collects interest, name, email and company, then thanks them.',
    config: leadCaptureConfig,
  },
];

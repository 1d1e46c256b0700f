import type { AgentConfig } from '@switchboard/agent-config';
import { createTenantFixture, type TenantFixture } from '../../../support/fixtures';
import { startOpsStack, tokenFor, type OpsStack } from '../../ops/support/ops-stack';

/**
 * The agent every adapter suite talks to: a scripted model whose answers say which rule fired,
 * so a test can tell the reply to a text from the reply to a media description.
 */
export const LONG_PARAGRAPH = (n: number) => `Parte ${n}. ` + 'Esta é uma frase comprida sobre a reserva do hotel. '.repeat(40).trim();
export const LONG_REPLY = [1, 2, 3, 4].map(LONG_PARAGRAPH).join('\n\n');

export const channelsAgentConfig: AgentConfig = {
  provider: {
    kind: 'scripted',
    model: 'channels-script',
    scripted: {
      rules: [
        { call: 'speak', round: 1, match: 'humano', toolCalls: [{ name: 'handoff_to_human', arguments: { motivo: 'pediu um humano' } }] },
        { call: 'speak', afterTool: 'handoff_to_human', reply: 'Vou chamar um atendente.' },
        { call: 'speak', match: '^\\[image\\]', reply: 'Recebi sua foto: {{message}}' },
        { call: 'speak', match: '^\\[voice message\\]', reply: 'Recebi seu áudio.' },
        { call: 'speak', match: 'longo', reply: LONG_REPLY },
        // Slow on purpose: a test moves the customer's message back in time before the reply goes (WhatsApp's window).
        { call: 'speak', match: 'janela', reply: 'Resposta depois da janela.', latencyMs: 2500 },
        { call: 'speak', reply: 'Oi! Você disse: **{{message}}** & <nada mais>' },
      ],
    },
  },
  fields: {},
  flows: [],
  tools: ['handoff_to_human'],
};

export interface ChannelsStack {
  stack: OpsStack;
  fx: TenantFixture;
  owner: string;
}

/** API + worker on their own database and queue, allowed to call 127.0.0.1 (the fake platforms), delivering fast. */
export async function startChannelsStack(): Promise<ChannelsStack> {
  const stack = await startOpsStack(
    { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', DELIVERY_POLL_MS: '100', DELIVERY_BACKOFF_MS: '50', DELIVERY_MAX_ATTEMPTS: '5' },
    { PUBLIC_API_URL: 'https://bots.example.test' },
  );
  const fx = await createTenantFixture(stack.prisma, { agentConfig: channelsAgentConfig });
  const owner = await tokenFor(stack, 'owner', fx.tenant.id);
  return { stack, fx, owner };
}

/** A raw POST to the stack's API (platform webhooks carry no bearer token), answering status and JSON. */
export async function postRaw(apiUrl: string, path: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(apiUrl + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

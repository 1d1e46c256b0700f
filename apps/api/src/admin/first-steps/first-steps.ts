import { agentConfigSchema } from '@switchboard/agent-config';
import type { TenantTx } from '@switchboard/db';
import { z } from 'zod';

/** One step of a new tenant's checklist, ticked from the tenant's own rows. */
export const firstStep = z.object({
  id: z.enum(['agent', 'channel', 'test-message', 'inbox']),
  done: z.boolean(),
  /** What made it done (or what is missing), in words. */
  detail: z.string(),
  /** The row the console links to: the channel to send on, the conversation to open. */
  channelId: z.uuid().optional(),
  sessionId: z.uuid().optional(),
});
export type FirstStep = z.infer<typeof firstStep>;

export const firstStepsAnswer = z.object({ tenantId: z.uuid(), steps: z.array(firstStep), done: z.boolean() });
export type FirstStepsDto = z.infer<typeof firstStepsAnswer>;

/** A template: a complete, publishable config (checked against the AgentConfig schema here too). */
export const agentTemplateAnswer = z.object({
  id: z.enum(['concierge', 'faq', 'lead-capture']),
  name: z.string(),
  description: z.string(),
  config: agentConfigSchema,
});

/**
 * The first-run checklist: a published agent, a channel that uses a live agent, a customer
 * message on a channel, and a reply to it (the conversation as the inbox shows it). Four
 * existence checks on indexed columns; the playground's messages do not count (they are not on
 * a channel).
 */
export async function firstSteps(tx: TenantTx, tenantId: string): Promise<FirstStepsDto> {
  const live = { tenantId, archivedAt: null };
  const [agent, channel, inbound, reply] = await Promise.all([
    tx.agent.findFirst({ where: { ...live, publishedVersion: { not: null } }, select: { name: true }, orderBy: { createdAt: 'asc' } }),
    tx.channel.findFirst({ where: { tenantId, agent: { archivedAt: null } }, select: { id: true, name: true }, orderBy: { createdAt: 'asc' } }),
    tx.message.findFirst({ where: { tenantId, direction: 'inbound' }, select: { channel: { select: { name: true } } }, orderBy: { createdAt: 'asc' } }),
    tx.message.findFirst({ where: { tenantId, direction: 'outbound' }, select: { sessionId: true }, orderBy: { createdAt: 'asc' } }),
  ]);
  const steps: FirstStep[] = [
    { id: 'agent', done: !!agent, detail: agent ? `"${agent.name}" is published.` : 'No published agent yet.' },
    { id: 'channel', done: !!channel, detail: channel ? `"${channel.name}" is connected.` : 'No channel yet.', channelId: channel?.id },
    { id: 'test-message', done: !!inbound, detail: inbound ? `A message arrived on "${inbound.channel.name}".` : 'No message has arrived on a channel yet.', channelId: channel?.id },
    { id: 'inbox', done: !!reply, detail: reply ? 'A conversation with its reply is in the inbox.' : 'No conversation has a reply yet.', sessionId: reply?.sessionId },
  ];
  return { tenantId, steps, done: steps.every((s) => s.done) };
}

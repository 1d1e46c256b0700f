import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '@switchboard/db';

// Minimal rows for worker tests that drive the pipeline without the API: a tenant, its agent
// and channel, a session, and inbound messages queued the way ingest stores them.

export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

export interface SessionRows {
  tenantId: string;
  agentId: string;
  channelId: string;
  sessionId: string;
}

export async function createSessionRows(prisma: PrismaClient, agentConfig: object = {}): Promise<SessionRows> {
  const slug = unique('wt');
  const tenant = await prisma.tenant.create({ data: { name: slug, slug } });
  const agent = await prisma.agent.create({ data: { tenantId: tenant.id, name: 'Agente', config: agentConfig } });
  const channel = await prisma.channel.create({ data: { tenantId: tenant.id, agentId: agent.id, name: 'api' } });
  const session = await prisma.session.create({
    data: { tenantId: tenant.id, channelId: channel.id, agentId: agent.id, externalKey: unique('s') },
  });
  return { tenantId: tenant.id, agentId: agent.id, channelId: channel.id, sessionId: session.id };
}

export async function queueInbound(prisma: PrismaClient, rows: SessionRows, texts: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const text of texts) {
    const m = await prisma.message.create({
      data: {
        tenantId: rows.tenantId,
        sessionId: rows.sessionId,
        channelId: rows.channelId,
        direction: 'inbound',
        status: 'queued',
        text,
      },
    });
    ids.push(m.id);
  }
  return ids;
}

import { PrismaService, withTenant, type SessionStatus } from '@switchboard/db';
import type { VisitorContext } from './visitor.guard';

/** The visitor's conversation if it has begun (sessions are created by the first message or identify()). */
export async function findVisitorSession(prisma: PrismaService, v: Pick<VisitorContext, 'tenantId' | 'channelId' | 'sessionKey'>): Promise<{ id: string; status: SessionStatus } | null> {
  return withTenant(prisma, v.tenantId, (tx) =>
    tx.session.findUnique({ where: { channelId_externalKey: { channelId: v.channelId, externalKey: v.sessionKey } }, select: { id: true, status: true } }),
  );
}

/** The channel message id of a visitor's message: the widget's id, under the visitor, so visitors' ids never meet. */
export function visitorMessageExternalId(visitor: string, clientId: string): string {
  return `${visitor}:${clientId}`;
}

/** The widget's own id back from a stored channel message id (null for another visitor's or none). */
export function clientIdOf(visitor: string, externalId: string | null): string | null {
  const prefix = `${visitor}:`;
  return externalId?.startsWith(prefix) ? externalId.slice(prefix.length) : null;
}

import { Prisma, withTenant, type MessageStatus, type PrismaClient } from '@switchboard/db';
import type { ChannelAuthContext } from '../channel-auth/channel-auth.context';
import type { PostMessageBody } from './messages.schemas';

export interface InsertedInboundMessage {
  messageId: string;
  sessionId: string;
  status: MessageStatus;
  createdAt: Date;
}

/**
 * Creates the session on first use and inserts an inbound message, in one statement (a CTE) and
 * one round trip, in a transaction scoped to the key's tenant by row-level security. Ingest
 * stores `queued`; a message over quota is stored `failed` with a kind. ON CONFLICT makes
 * "create on first use" safe when two messages of a new session race. A repeated channel
 * message id fails on the unique index: see isUniqueViolation.
 */
export async function insertInboundMessage(
  prisma: PrismaClient,
  auth: ChannelAuthContext,
  body: PostMessageBody,
  stored: { status: MessageStatus; kind?: string },
): Promise<InsertedInboundMessage> {
  const now = new Date();
  const [row] = await withTenant(prisma, auth.tenantId, (tx) => tx.$queryRaw<{ id: string; sessionId: string; status: MessageStatus; createdAt: Date }[]>`
    WITH session AS (
      INSERT INTO "Session" ("tenantId", "channelId", "agentId", "externalKey", "lastMessageAt", "updatedAt")
      VALUES (${auth.tenantId}::uuid, ${auth.channelId}::uuid, ${auth.agentId}::uuid, ${body.session}, ${now}, ${now})
      ON CONFLICT ("channelId", "externalKey")
      DO UPDATE SET "lastMessageAt" = EXCLUDED."lastMessageAt", "updatedAt" = EXCLUDED."updatedAt"
      RETURNING "id")
    INSERT INTO "Message" ("tenantId", "channelId", "sessionId", "direction", "status", "kind", "text", "externalId", "createdAt")
    SELECT ${auth.tenantId}::uuid, ${auth.channelId}::uuid, session."id", 'inbound'::"MessageDirection",
      ${stored.status}::"MessageStatus", ${stored.kind ?? null}, ${body.text}, ${body.id ?? null}, ${now}
    FROM session
    RETURNING "id", "sessionId", "status", "createdAt"`);
  return { messageId: row.id, sessionId: row.sessionId, status: row.status, createdAt: row.createdAt };
}

/** True when a write hit a unique index: P2002 from the query builder, Postgres 23505 from raw SQL. */
export function isUniqueViolation(err: unknown): boolean {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (err.code === 'P2002') return true;
  const meta = err.meta as { code?: unknown; driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } } | undefined;
  return meta?.code === '23505' || meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation' || meta?.driverAdapterError?.cause?.originalCode === '23505';
}

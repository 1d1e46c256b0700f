import type { PrismaClient } from '@switchboard/db';

/** Why a session's newest turn went wrong, for the sessions list's flag. */
export interface LastTurnFailure {
  turnId: string;
  status: 'failed' | 'deferred';
  code: string | null;
  message: string | null;
  at: Date;
}

interface Row {
  sessionId: string;
  turnId: string;
  status: 'failed' | 'deferred' | null;
  code: string | null;
  message: string | null;
  at: Date;
}

/**
 * The newest turn of each session (one index probe per session on (sessionId, createdAt)), kept
 * when one of its outcomes failed or was deferred by a fault (not `action-deferred`, which is an
 * action asking to run later). The ids come from a tenant-scoped read, so no other tenant's
 * turn can be reached through them.
 */
export async function lastTurnFailures(db: Pick<PrismaClient, '$queryRaw'>, sessionIds: readonly string[]): Promise<Map<string, LastTurnFailure>> {
  const out = new Map<string, LastTurnFailure>();
  if (sessionIds.length === 0) return out;
  const rows = await db.$queryRaw<Row[]>`
    SELECT s.id AS "sessionId", lt.id AS "turnId", f.status, f.code, f.message, lt."createdAt" AS at
      FROM unnest(${sessionIds as string[]}::uuid[]) AS s(id)
      CROSS JOIN LATERAL (
        SELECT t.id, t.outcomes, t."createdAt" FROM "Turn" t WHERE t."sessionId" = s.id ORDER BY t."createdAt" DESC, t.id DESC LIMIT 1
      ) lt
      CROSS JOIN LATERAL (
        SELECT o->>'status' AS status, o->>'code' AS code, o->>'message' AS message
          FROM jsonb_array_elements(lt.outcomes) o
         WHERE o->>'status' = 'failed' OR (o->>'status' = 'deferred' AND o->>'code' IS DISTINCT FROM 'action-deferred')
         ORDER BY (o->>'status' = 'failed') DESC LIMIT 1
      ) f`;
  for (const r of rows) {
    if (r.status) out.set(r.sessionId, { turnId: r.turnId, status: r.status, code: r.code, message: r.message, at: r.at });
  }
  return out;
}

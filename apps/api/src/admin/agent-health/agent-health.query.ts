import type { TenantTx } from '@switchboard/db';
import { z } from 'zod';

/** How far back the failure share looks: long enough to smooth one bad turn, short enough to show an outage within a minute. */
export const HEALTH_WINDOW_MINUTES = 60;
/** How far back the last failure is looked for (bounded so a healthy agent's history is never scanned whole). */
export const LAST_FAILURE_HOURS = 24;

export type AgentHealthStatus = 'idle' | 'ok' | 'degraded' | 'failing';

export const agentHealthRecord = z.object({
  /** The agent's id, so react-admin reads this as the `agent-health` record of that agent. */
  id: z.uuid(),
  windowMinutes: z.number().int(),
  turns: z.number().int(),
  failed: z.number().int(),
  deferred: z.number().int(),
  /** (failed + deferred) / turns over the window, 0 with no turns; rounded to 3 decimals. */
  failingShare: z.number().min(0).max(1),
  status: z.enum(['idle', 'ok', 'degraded', 'failing']),
  /** The newest failing turn in the last 24 hours. */
  lastFailure: z
    .object({
      turnId: z.uuid(),
      sessionId: z.uuid(),
      /** `failed` or `deferred` (a provider outage parks the step for a retry). */
      status: z.enum(['failed', 'deferred']),
      code: z.string().nullable(),
      message: z.string().nullable(),
      at: z.date(),
    })
    .nullable(),
});
/** One agent's health from its recent Turn rows (docs/admin-api.md, "Agent health"). */
export type AgentHealthDto = z.infer<typeof agentHealthRecord>;
export type LastFailure = NonNullable<AgentHealthDto['lastFailure']>;

interface Row {
  agentId: string;
  turns: number;
  failed: number;
  deferred: number;
  lastTurnId: string | null;
  lastSessionId: string | null;
  lastStatus: 'failed' | 'deferred' | null;
  lastCode: string | null;
  lastMessage: string | null;
  lastAt: Date | null;
}

/**
 * A turn counts as failed when one of its outcomes failed, as deferred when one was deferred and
 * none failed. `action-deferred` is left out: an action that says "not now" is the agent working
 * as designed, not a fault. One query for a page of agents: the window's counts and, per agent,
 * the newest failing turn through the (agentId, createdAt) index.
 */
export async function agentHealth(tx: TenantTx, agentIds: readonly string[], now = new Date()): Promise<Map<string, AgentHealthDto>> {
  const result = new Map<string, AgentHealthDto>();
  if (agentIds.length === 0) return result;
  const since = new Date(now.getTime() - HEALTH_WINDOW_MINUTES * 60_000);
  const failureSince = new Date(now.getTime() - LAST_FAILURE_HOURS * 3_600_000);
  const rows = await tx.$queryRaw<Row[]>`
    WITH agents AS (SELECT unnest(${agentIds as string[]}::uuid[]) AS id),
    classified AS (
      SELECT t."agentId",
             EXISTS (SELECT 1 FROM jsonb_array_elements(t.outcomes) o WHERE o->>'status' = 'failed') AS failed,
             EXISTS (SELECT 1 FROM jsonb_array_elements(t.outcomes) o
                      WHERE o->>'status' = 'deferred' AND o->>'code' IS DISTINCT FROM 'action-deferred') AS deferred
        FROM "Turn" t
       WHERE t."agentId" IN (SELECT id FROM agents) AND t."createdAt" > ${since} AND t."createdAt" <= ${now}
    ),
    counts AS (
      SELECT "agentId", count(*)::int AS turns,
             count(*) FILTER (WHERE failed)::int AS failed,
             count(*) FILTER (WHERE deferred AND NOT failed)::int AS deferred
        FROM classified GROUP BY "agentId"
    )
    SELECT a.id AS "agentId", coalesce(c.turns, 0) AS turns, coalesce(c.failed, 0) AS failed, coalesce(c.deferred, 0) AS deferred,
           lf.id AS "lastTurnId", lf."sessionId" AS "lastSessionId", lf.status AS "lastStatus", lf.code AS "lastCode",
           lf.message AS "lastMessage", lf."createdAt" AS "lastAt"
      FROM agents a
      LEFT JOIN counts c ON c."agentId" = a.id
      LEFT JOIN LATERAL (
        SELECT t.id, t."sessionId", t."createdAt", o->>'status' AS status, o->>'code' AS code, o->>'message' AS message
          FROM "Turn" t
          CROSS JOIN LATERAL (
            SELECT o FROM jsonb_array_elements(t.outcomes) o
             WHERE o->>'status' = 'failed' OR (o->>'status' = 'deferred' AND o->>'code' IS DISTINCT FROM 'action-deferred')
             ORDER BY (o->>'status' = 'failed') DESC LIMIT 1
          ) f
         WHERE t."agentId" = a.id AND t."createdAt" > ${failureSince} AND t."createdAt" <= ${now}
         ORDER BY t."createdAt" DESC, t.id DESC
         LIMIT 1
      ) lf ON true`;
  for (const r of rows) {
    const failingShare = r.turns === 0 ? 0 : Math.round(((r.failed + r.deferred) / r.turns) * 1000) / 1000;
    result.set(r.agentId, {
      id: r.agentId,
      windowMinutes: HEALTH_WINDOW_MINUTES,
      turns: r.turns,
      failed: r.failed,
      deferred: r.deferred,
      failingShare,
      status: healthStatus(r.turns, failingShare),
      lastFailure:
        r.lastTurnId && r.lastSessionId && r.lastStatus && r.lastAt
          ? { turnId: r.lastTurnId, sessionId: r.lastSessionId, status: r.lastStatus, code: r.lastCode, message: r.lastMessage, at: r.lastAt }
          : null,
    });
  }
  return result;
}

/** `failing` when half or more of the window's turns failed or were deferred, `degraded` when any did. */
export function healthStatus(turns: number, failingShare: number): AgentHealthStatus {
  if (turns === 0) return 'idle';
  if (failingShare >= 0.5) return 'failing';
  return failingShare > 0 ? 'degraded' : 'ok';
}

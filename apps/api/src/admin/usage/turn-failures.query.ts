import { Prisma, type TenantTx } from '@switchboard/db';
import { InvalidListQueryError } from '../admin-errors';
import { isUuid } from '../list-query/filters';
import { FilterValueError, parseListQuery, type ListSpec } from '../list-query/list-query';

/** The longest range the failures read covers: it scans Turn rows (by the tenant's createdAt index), not the roll-ups. */
export const MAX_FAILURE_DAYS = 92;
const DAY_MS = 86_400_000;
const LAST_STORABLE_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** Failed or deferred turns of one outcome code over the range (the dashboard's "by code" table). */
export interface TurnFailureDto {
  /** `<status>:<code>`, one row each. */
  id: string;
  status: 'failed' | 'deferred';
  /** The outcome code (`provider-auth`, `agent-unavailable`…); null when the outcome had none. */
  code: string | null;
  turns: number;
  /** Agents with such turns in the range. */
  agents: number;
  lastAt: Date;
  /** The newest such turn: an example to open. */
  lastTurnId: string;
}

type Part = { since?: Date; until?: Date; agentId?: string };

/** A calendar day (YYYY-MM-DD, UTC): `from` counts from its start, `to` up to its end. */
function day(which: 'since' | 'until') {
  return (value: unknown): Part => {
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || value.startsWith('0000')) {
      throw new FilterValueError('must be a day as YYYY-MM-DD.');
    }
    const start = new Date(`${value}T00:00:00Z`);
    // The end of 9999-12-31 stays in year 9999: the driver's form of later years is refused by Postgres.
    return { [which]: which === 'since' ? start : new Date(Math.min(start.getTime() + DAY_MS, LAST_STORABLE_MS)) };
  };
}

function oneAgent(value: unknown): Part {
  if (!isUuid(value)) throw new FilterValueError('must be one agent id (a UUID).');
  return { agentId: value };
}

/** The usage list's filter (from, to, agentId), so the dashboard sends the same one. */
const failuresSpec: ListSpec<Part> = {
  resource: 'turn-failures',
  sortFields: ['turns'],
  defaultSort: ['turns', 'desc'],
  tieBreaker: 'turns',
  filters: { from: day('since'), to: day('until'), agentId: oneAgent },
};

export interface FailureWindow {
  since: Date;
  until: Date;
  agentId?: string;
}

/** The range asked for (the last 14 days by default), refused with 400 when backwards or longer than MAX_FAILURE_DAYS. */
export function parseFailureWindow(query: Record<string, unknown>, now = new Date()): FailureWindow {
  const parts = Object.assign({}, ...parseListQuery(query, failuresSpec).where) as Part;
  const until = parts.until ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS);
  const since = parts.since ?? new Date(until.getTime() - 14 * DAY_MS);
  if (since >= until) throw new InvalidListQueryError('invalid-filter', '"from" must be on or before "to".');
  if (until.getTime() - since.getTime() > MAX_FAILURE_DAYS * DAY_MS) {
    throw new InvalidListQueryError('invalid-filter', `Pick at most ${MAX_FAILURE_DAYS} days from "from" to "to".`, { maxDays: MAX_FAILURE_DAYS });
  }
  return { since, until, ...(parts.agentId && { agentId: parts.agentId }) };
}

/**
 * Failed and deferred turns by outcome code. A turn counts once, as agent health counts it
 * (agent-health.query.ts): failed when one of its outcomes failed, else deferred when one was
 * deferred (`action-deferred` left out: the agent working as designed), under that outcome's
 * code. `tenantId` narrows to one tenant (undefined: a platform admin's every tenant); the
 * caller's transaction adds row-level security for tenant users.
 */
export async function turnFailuresByCode(tx: TenantTx, tenantId: string | undefined, w: FailureWindow): Promise<TurnFailureDto[]> {
  const rows = await tx.$queryRaw<{ status: 'failed' | 'deferred'; code: string | null; turns: number; agents: number; lastAt: Date; lastTurnId: string }[]>`
    SELECT f.status, f.code, count(*)::int AS turns, count(DISTINCT t."agentId")::int AS agents,
           max(t."createdAt") AS "lastAt",
           (array_agg(t.id ORDER BY t."createdAt" DESC, t.id DESC))[1]::text AS "lastTurnId"
      FROM "Turn" t
      CROSS JOIN LATERAL (
        SELECT o->>'status' AS status, o->>'code' AS code FROM jsonb_array_elements(t.outcomes) o
         WHERE o->>'status' = 'failed' OR (o->>'status' = 'deferred' AND o->>'code' IS DISTINCT FROM 'action-deferred')
         ORDER BY (o->>'status' = 'failed') DESC LIMIT 1
      ) f
     WHERE t."createdAt" >= ${w.since} AND t."createdAt" < ${w.until}
       -- Containment first: most turns went well and are dropped without unnesting their outcomes.
       AND (t.outcomes @> '[{"status":"failed"}]' OR t.outcomes @> '[{"status":"deferred"}]')
       ${tenantId ? Prisma.sql`AND t."tenantId" = ${tenantId}::uuid` : Prisma.empty}
       ${w.agentId ? Prisma.sql`AND t."agentId" = ${w.agentId}::uuid` : Prisma.empty}
     GROUP BY f.status, f.code
     ORDER BY turns DESC, f.status, f.code`;
  return rows.map((r) => ({ id: `${r.status}:${r.code ?? ''}`, ...r }));
}

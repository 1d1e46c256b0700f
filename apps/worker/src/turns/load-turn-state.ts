import { Injectable } from '@nestjs/common';
import type { HistoryItem } from '@falai/agent';
import { Prisma, PrismaService, type QuotaLimits } from '@switchboard/db';
import type { AgentStamp } from '../agents/agent-catalog';
import type { ProviderBackoff } from './provider-backoff';
import { HISTORY_LIMIT } from '../config/worker-settings';
import { TurnSessionMissingError } from './turn-errors';

/** A queued inbound message a turn answers. */
export interface PendingMessage {
  id: string;
  text: string;
  /** When the API accepted it: the start of its queue wait. */
  createdAt: Date;
}

/** The session row a turn runs on. */
export interface TurnSessionRow {
  id: string;
  tenantId: string;
  status: 'active' | 'handed_off';
  channelId: string;
  agentId: string;
  state: unknown;
  version: number;
}

export interface TurnState {
  session: TurnSessionRow;
  /** The conversation so far, oldest first, as the engine's history. */
  history: HistoryItem[];
  /** The tenant is suspended (read with the session, fresh for every turn): the turn is refused. */
  tenantSuspended: boolean;
  /** Which monthly limits the tenant and the agent have (read with the session): none, no quota query. */
  quotaLimits: QuotaLimits;
  /** Which version of the session's agent a turn runs now (null: no such agent), AgentCatalog's cache key. */
  agent: AgentStamp | null;
  /** The session's wait for its model since its last commit (null: none). */
  providerBackoff: ProviderBackoff | null;
}

/**
 * What the draining worker reads first, in the same one round trip as the turn's state: whether
 * the job's own message still waits, and the session's next queued inbound message.
 */
export interface SessionClaim {
  /** The job's own message is answered, failed or gone (always false without one). */
  ownSettled: boolean;
  /** The session's oldest queued inbound message, null when none waits. */
  next: PendingMessage | null;
  /** The state the next turn starts from; undefined when the session is gone. */
  state?: TurnState;
}

interface TurnStateRow extends TurnSessionRow {
  history: HistoryItem[];
  tenantSuspended: boolean;
  tenantLimited: boolean;
  agentBudgeted: boolean;
  agentFound: boolean;
  agentPublishedVersion: number | null;
  agentUpdatedAt: Date | null;
  agentArchivedAt: Date | null;
  ownStatus: string | null;
  next: { id: string; text: string; createdAt: string } | null;
  providerBackoff: ProviderBackoff | null;
}

/**
 * What a turn starts from, in one round trip: the session row (its state and version), whether
 * its tenant is suspended, which monthly limits exist, which version of its agent runs, and the
 * conversation before the message being answered. The history is the messages of committed
 * turns only (queued messages are not part of it yet), turn by turn, each turn's inbound before
 * its replies: ordering by turn rather than by `seq` matters for bursts, whose first replies are
 * stored after the later messages arrived. The last HISTORY_LIMIT messages.
 */
@Injectable()
export class LoadTurnState {
  constructor(private readonly prisma: PrismaService) {}

  async execute(tenantId: string, sessionId: string): Promise<TurnState> {
    const [row] = await this.prisma.queryPrepared<TurnStateRow>('sb_turn_state', turnStateQuery(tenantId, sessionId));
    if (!row) throw new TurnSessionMissingError(sessionId);
    return turnStateOf(row);
  }

  /**
   * The drain's claim-and-load: the turn's state as `execute` reads it, plus whether the job's own
   * message (`ownMessageId`) still waits and the session's next queued message, in one round trip.
   * With the own message settled and nothing else queued the history is not read: the job ends
   * without a turn.
   */
  async claim(tenantId: string, sessionId: string, ownMessageId?: string): Promise<SessionClaim> {
    const [row] = await this.prisma.queryPrepared<TurnStateRow>(
      ownMessageId === undefined ? 'sb_turn_state' : 'sb_turn_state_claim',
      turnStateQuery(tenantId, sessionId, ownMessageId),
    );
    // No session (deleted with its messages): nothing waits, the own message included.
    if (!row) return { ownSettled: true, next: null };
    const ownSettled = ownMessageId !== undefined && row.ownStatus !== 'queued';
    const next = row.next && { id: row.next.id, text: row.next.text, createdAt: new Date(row.next.createdAt) };
    return { ownSettled, next, state: turnStateOf(row) };
  }
}

function turnStateOf(row: TurnStateRow): TurnState {
  const {
    history,
    tenantSuspended,
    tenantLimited,
    agentBudgeted,
    agentFound,
    agentPublishedVersion,
    agentUpdatedAt,
    agentArchivedAt,
    ownStatus: _own,
    next: _next,
    providerBackoff,
    ...session
  } = row;
  const agent = agentFound ? { publishedVersion: agentPublishedVersion, updatedAt: agentUpdatedAt!, archivedAt: agentArchivedAt } : null;
  const backoff = providerBackoff && { retryAt: providerBackoff.retryAt, deferredAt: providerBackoff.deferredAt, deferrals: providerBackoff.deferrals };
  return { session, history, tenantSuspended, quotaLimits: { tenant: tenantLimited, agent: agentBudgeted }, agent, providerBackoff: backoff };
}

/**
 * The query behind LoadTurnState. Its cost does not grow with the conversation: the last
 * HISTORY_LIMIT turns come from the ("sessionId", "createdAt") index and their messages, turn by
 * turn (a LATERAL with its own LIMIT, which the planner cannot flatten into a scan of every
 * message of the tenant), from the ("turnId") index. The LATERAL has no tenant filter: its turns
 * are the session's, itself checked against the tenant, and a filter there can tempt the planner
 * onto the tenant's index, so a session with ten thousand earlier messages reads what a fresh
 * one does. The turns are matched on the session id as a value, not as the outer row's column:
 * planned with the value, a long conversation is among the column's most common values and the
 * planner reads its last turns from the index; matched on the column it assumed an average
 * session of a few dozen turns and read all 5,000 of a long one to sort them (a CI run).
 * Every turn holds at least the inbound it answered, so HISTORY_LIMIT turns always cover the last
 * HISTORY_LIMIT messages. Run as a prepared statement (one text with the own message, one
 * without), so after a few calls a connection keeps a generic plan, made without the values:
 * `load-turn-state.spec.ts` checks that plan too. Exported so a test can read its plans.
 */
export function turnStateQuery(tenantId: string, sessionId: string, ownMessageId?: string): Prisma.Sql {
  // The own message's status; with it settled and nothing else waiting the history is not needed
  // (a CASE runs its subquery only when taken). Found by its id alone, and checked against the
  // session in the CASE: as a condition beside the id, the tenant (or the session) let a plan made
  // while the tables were small read the message from the tenant's index, and keep doing so on
  // that connection as the tenant's messages grew (3,657 pages a claim in a fresh bench database).
  const own = ownMessageId
    ? Prisma.sql`(SELECT CASE WHEN o."sessionId" = s."id" AND o."tenantId" = s."tenantId" THEN o."status"::text END
                  FROM "Message" o WHERE o."id" = ${ownMessageId}::uuid)`
    : Prisma.sql`NULL::text`;
  // The session's queued messages come from the partial index on its queued inbound messages;
  // the session is the tenant's (checked below), and so are its messages.
  const anyQueued = Prisma.sql`EXISTS (SELECT 1 FROM "Message" w
               WHERE w."sessionId" = s."id" AND w."direction" = 'inbound' AND w."status" = 'queued')`;
  const historyWanted = ownMessageId ? Prisma.sql`(${own} = 'queued' OR ${anyQueued})` : Prisma.sql`true`;
  return Prisma.sql`
      SELECT s."id", s."tenantId", s."status"::text AS "status", s."channelId", s."agentId", s."state", s."version",
             COALESCE(tn."status" = 'suspended', false) AS "tenantSuspended",
             COALESCE(tn."monthlyLlmCallQuota" IS NOT NULL OR tn."monthlyTokenQuota" IS NOT NULL OR tn."monthlyBudgetMicros" IS NOT NULL, false) AS "tenantLimited",
             a."id" IS NOT NULL AS "agentFound", a."publishedVersion" AS "agentPublishedVersion",
             a."updatedAt" AS "agentUpdatedAt", a."archivedAt" AS "agentArchivedAt",
             COALESCE(a."monthlyBudgetMicros" IS NOT NULL, false) AS "agentBudgeted",
             ${own} AS "ownStatus",
             -- Written at a deferral with the session's version then: a commit since has ended it.
             CASE WHEN (s."providerBackoff"->>'version')::int = s."version" THEN s."providerBackoff" END AS "providerBackoff",
             (SELECT CASE WHEN q."tenantId" = s."tenantId" THEN json_build_object('id', q."id", 'text', q."text", 'createdAt', q."createdAt") END
                FROM "Message" q
               WHERE q."sessionId" = s."id" AND q."direction" = 'inbound' AND q."status" = 'queued'
               ORDER BY q."seq"
               LIMIT 1) AS "next",
             CASE WHEN ${historyWanted} THEN COALESCE((
               SELECT json_agg(json_build_object(
                        'role', CASE WHEN h."direction" = 'inbound' THEN 'user' ELSE 'assistant' END,
                        'content', h."text") ORDER BY h."turnAt", h."direction", h."seq")
                 FROM (SELECT m."direction", m."text", m."seq", t."createdAt" AS "turnAt"
                         FROM (SELECT "id", "createdAt" FROM "Turn"
                                WHERE "sessionId" = ${sessionId}::uuid
                                ORDER BY "createdAt" DESC
                                LIMIT ${HISTORY_LIMIT}) AS t
                         CROSS JOIN LATERAL (SELECT "direction", "text", "seq" FROM "Message"
                                              WHERE "turnId" = t."id"
                                              ORDER BY "direction" DESC, "seq" DESC
                                              LIMIT ${HISTORY_LIMIT}) AS m
                        ORDER BY t."createdAt" DESC, m."direction" DESC, m."seq" DESC
                        LIMIT ${HISTORY_LIMIT}) AS h), '[]'::json) ELSE '[]'::json END AS "history"
        FROM "Session" s
        LEFT JOIN "Tenant" tn ON tn."id" = s."tenantId"
        LEFT JOIN "Agent" a ON a."id" = s."agentId" AND a."tenantId" = s."tenantId"
       WHERE s."id" = ${sessionId}::uuid AND s."tenantId" = ${tenantId}::uuid`;
}

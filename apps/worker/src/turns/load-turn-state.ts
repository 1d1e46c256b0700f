import { Injectable } from '@nestjs/common';
import type { HistoryItem } from '@falai/agent';
import { Prisma, PrismaService } from '@switchboard/db';
import { HISTORY_LIMIT } from '../config/worker-settings';
import { TurnSessionMissingError } from './turn-errors';

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
}

/**
 * What a turn starts from, in one round trip: the session row (its state and version), whether
 * its tenant is suspended, and the conversation before the message being answered. The history is the messages of committed
 * turns only (queued messages are not part of it yet), turn by turn, each turn's inbound before
 * its replies: ordering by turn rather than by `seq` matters for bursts, whose first replies are
 * stored after the later messages arrived. The last HISTORY_LIMIT messages.
 */
@Injectable()
export class LoadTurnState {
  constructor(private readonly prisma: PrismaService) {}

  async execute(tenantId: string, sessionId: string): Promise<TurnState> {
    const [row] = await this.prisma.$queryRaw<(TurnSessionRow & { history: HistoryItem[]; tenantSuspended: boolean })[]>(turnStateQuery(tenantId, sessionId));
    if (!row) throw new TurnSessionMissingError(sessionId);
    const { history, tenantSuspended, ...session } = row;
    return { session, history, tenantSuspended };
  }
}

/**
 * The query behind LoadTurnState. Its cost does not grow with the conversation: the last
 * HISTORY_LIMIT turns come from the ("sessionId", "createdAt") index and their messages, turn by
 * turn (a LATERAL with its own LIMIT, which the planner cannot flatten into a scan of every
 * message of the tenant), from the ("turnId") index. The LATERAL has no tenant filter: its turns
 * are the session's, itself checked against the tenant, and a filter there can tempt the planner
 * onto the tenant's index, so a session with ten thousand earlier messages reads what a fresh
 * one does.
 * Every turn holds at least the inbound it answered, so HISTORY_LIMIT turns always cover the last
 * HISTORY_LIMIT messages. Exported so a test can read its plan.
 */
export function turnStateQuery(tenantId: string, sessionId: string): Prisma.Sql {
  return Prisma.sql`
      SELECT s."id", s."tenantId", s."status"::text AS "status", s."channelId", s."agentId", s."state", s."version",
             COALESCE((SELECT tn."status" = 'suspended' FROM "Tenant" tn WHERE tn."id" = s."tenantId"), false) AS "tenantSuspended",
             COALESCE((
               SELECT json_agg(json_build_object(
                        'role', CASE WHEN h."direction" = 'inbound' THEN 'user' ELSE 'assistant' END,
                        'content', h."text") ORDER BY h."turnAt", h."direction", h."seq")
                 FROM (SELECT m."direction", m."text", m."seq", t."createdAt" AS "turnAt"
                         FROM (SELECT "id", "createdAt" FROM "Turn"
                                WHERE "sessionId" = s."id"
                                ORDER BY "createdAt" DESC
                                LIMIT ${HISTORY_LIMIT}) AS t
                         CROSS JOIN LATERAL (SELECT "direction", "text", "seq" FROM "Message"
                                              WHERE "turnId" = t."id"
                                              ORDER BY "direction" DESC, "seq" DESC
                                              LIMIT ${HISTORY_LIMIT}) AS m
                        ORDER BY t."createdAt" DESC, m."direction" DESC, m."seq" DESC
                        LIMIT ${HISTORY_LIMIT}) AS h), '[]'::json) AS "history"
        FROM "Session" s
       WHERE s."id" = ${sessionId}::uuid AND s."tenantId" = ${tenantId}::uuid`;
}

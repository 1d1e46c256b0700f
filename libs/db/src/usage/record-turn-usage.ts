import type { PrismaClient } from '../generated/prisma/client';
import { latencyBucketVector } from './latency-buckets';
import { usageSlot } from './usage-slot';

/** A PrismaClient or the `tx` of an interactive transaction. */
export type SqlRunner = Pick<PrismaClient, '$executeRaw'>;

export interface TurnUsage {
  tenantId: string;
  agentId: string;
  /** The turn's session: picks the roll-up row's slot (usageSlot); slot 0 without one. */
  sessionId?: string;
  /** When the turn committed; the roll-up day is its UTC date. */
  at: Date;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  queueWaitMs: number;
  modelMs: number;
  toolsMs: number;
  commitMs: number;
  totalMs: number;
  outcomeCodes: readonly string[];
  /** A step was deferred (a provider-* transient failure scheduled a retry). */
  deferred: boolean;
  /** The run ended failed. */
  failed: boolean;
}

/**
 * Adds one turn to the daily roll-ups (UsageDaily, UsageOutcomeDaily) with atomic upserts, so
 * concurrent commits never lose an increment: the database function sb_record_turn_usage
 * (migration 20261202191000), which the worker's commit (sb_commit_turn) calls as its last
 * statement. In a transaction, call this last too: the roll-up row is shared by the turns of
 * the agent that day whose sessions fall in the same slot (USAGE_SLOTS), and its row lock is
 * held until the transaction ends.
 */
export async function recordTurnUsage(db: SqlRunner, u: TurnUsage): Promise<void> {
  const day = u.at.toISOString().slice(0, 10);
  await db.$executeRaw`SELECT sb_record_turn_usage(${u.tenantId}::uuid, ${u.agentId}::uuid, ${day}::date, ${usageSlot(u.sessionId)}::smallint,
    ${u.deferred ? 1 : 0}::int, ${u.failed ? 1 : 0}::int, ${u.llmCalls}::bigint, ${u.inputTokens}::bigint, ${u.outputTokens}::bigint,
    ${u.cachedInputTokens}::bigint, ${u.queueWaitMs}::bigint, ${u.modelMs}::bigint, ${u.toolsMs}::bigint, ${u.commitMs}::bigint,
    ${u.totalMs}::bigint, ${latencyBucketVector(u.totalMs)}::int[], ${[...new Set(u.outcomeCodes)]}::text[])`;
}

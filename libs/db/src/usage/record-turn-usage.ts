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
 * concurrent commits never lose an increment. Call it inside the turn's commit transaction —
 * as its LAST statement: the roll-up row is shared by the turns of the agent that day whose
 * sessions fall in the same slot (USAGE_SLOTS), and its row lock is held until the transaction
 * ends.
 */
export async function recordTurnUsage(db: SqlRunner, u: TurnUsage): Promise<void> {
  const day = u.at.toISOString().slice(0, 10);
  const slot = usageSlot(u.sessionId);
  await db.$executeRaw`
    INSERT INTO "UsageDaily" ("tenantId", "agentId", "day", "turns", "deferredTurns", "failedTurns", "llmCalls",
      "inputTokens", "outputTokens", "cachedInputTokens", "queueWaitMs", "modelMs", "toolsMs", "commitMs", "totalMs",
      "latencyBuckets", "updatedAt", "slot")
    VALUES (${u.tenantId}::uuid, ${u.agentId}::uuid, ${day}::date, 1, ${u.deferred ? 1 : 0}, ${u.failed ? 1 : 0},
      ${u.llmCalls}::bigint, ${u.inputTokens}::bigint, ${u.outputTokens}::bigint, ${u.cachedInputTokens}::bigint,
      ${u.queueWaitMs}::bigint, ${u.modelMs}::bigint, ${u.toolsMs}::bigint, ${u.commitMs}::bigint, ${u.totalMs}::bigint,
      ${latencyBucketVector(u.totalMs)}::int[], now(), ${slot}::smallint)
    ON CONFLICT ("tenantId", "agentId", "day", "slot") DO UPDATE SET
      "turns" = "UsageDaily"."turns" + 1,
      "deferredTurns" = "UsageDaily"."deferredTurns" + EXCLUDED."deferredTurns",
      "failedTurns" = "UsageDaily"."failedTurns" + EXCLUDED."failedTurns",
      "llmCalls" = "UsageDaily"."llmCalls" + EXCLUDED."llmCalls",
      "inputTokens" = "UsageDaily"."inputTokens" + EXCLUDED."inputTokens",
      "outputTokens" = "UsageDaily"."outputTokens" + EXCLUDED."outputTokens",
      "cachedInputTokens" = "UsageDaily"."cachedInputTokens" + EXCLUDED."cachedInputTokens",
      "queueWaitMs" = "UsageDaily"."queueWaitMs" + EXCLUDED."queueWaitMs",
      "modelMs" = "UsageDaily"."modelMs" + EXCLUDED."modelMs",
      "toolsMs" = "UsageDaily"."toolsMs" + EXCLUDED."toolsMs",
      "commitMs" = "UsageDaily"."commitMs" + EXCLUDED."commitMs",
      "totalMs" = "UsageDaily"."totalMs" + EXCLUDED."totalMs",
      "latencyBuckets" = ARRAY(
        SELECT COALESCE(old, 0) + COALESCE(new, 0)
          FROM unnest("UsageDaily"."latencyBuckets", EXCLUDED."latencyBuckets") WITH ORDINALITY AS b(old, new, i)
         ORDER BY i),
      "updatedAt" = now()`;

  const codes = [...new Set(u.outcomeCodes)];
  if (codes.length === 0) return;
  await db.$executeRaw`
    INSERT INTO "UsageOutcomeDaily" ("tenantId", "agentId", "day", "code", "turns", "slot")
    SELECT ${u.tenantId}::uuid, ${u.agentId}::uuid, ${day}::date, code, 1, ${slot}::smallint FROM unnest(${codes}::text[]) AS code
    ON CONFLICT ("tenantId", "agentId", "day", "code", "slot") DO UPDATE SET "turns" = "UsageOutcomeDaily"."turns" + 1`;
}

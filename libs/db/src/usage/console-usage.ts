import type { Prisma, PrismaClient } from '../generated/prisma/client';
import type { TenantTx } from '../tenant-scope';
import type { SqlRunner } from './record-turn-usage';

/**
 * Where a console run's model calls come from: a playground turn, or a conversation test run live
 * (a live-mode run, or the run that records a test saved from a transcript).
 */
export const CONSOLE_USAGE_SOURCES = ['playground', 'conversation-test'] as const;
export type ConsoleUsageSource = (typeof CONSOLE_USAGE_SOURCES)[number];

export interface ConsoleRunUsage {
  tenantId: string;
  agentId: string;
  source: ConsoleUsageSource;
  /** When the run ended; the roll-up day is its UTC date. */
  at: Date;
  turns: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

/**
 * Adds a console run's model usage to ConsoleUsageDaily (one atomic upsert, so concurrent runs
 * never lose an increment). Never UsageDaily: console runs are not customer traffic, yet they
 * called the real provider, so the tenant's monthly quota counts them (monthToDateUsage).
 */
export async function recordConsoleUsage(db: SqlRunner, u: ConsoleRunUsage): Promise<void> {
  const day = u.at.toISOString().slice(0, 10);
  await db.$executeRaw`INSERT INTO "ConsoleUsageDaily" ("tenantId", "agentId", "day", "source", "turns", "llmCalls", "inputTokens", "outputTokens", "cachedInputTokens")
    VALUES (${u.tenantId}::uuid, ${u.agentId}::uuid, ${day}::date, ${u.source}, ${u.turns}::int, ${u.llmCalls}::bigint, ${u.inputTokens}::bigint, ${u.outputTokens}::bigint, ${u.cachedInputTokens}::bigint)
    ON CONFLICT ("tenantId", "agentId", "day", "source") DO UPDATE SET
      "turns" = "ConsoleUsageDaily"."turns" + EXCLUDED."turns",
      "llmCalls" = "ConsoleUsageDaily"."llmCalls" + EXCLUDED."llmCalls",
      "inputTokens" = "ConsoleUsageDaily"."inputTokens" + EXCLUDED."inputTokens",
      "outputTokens" = "ConsoleUsageDaily"."outputTokens" + EXCLUDED."outputTokens",
      "cachedInputTokens" = "ConsoleUsageDaily"."cachedInputTokens" + EXCLUDED."cachedInputTokens",
      "updatedAt" = CURRENT_TIMESTAMP`;
}

/** One source's console usage over a range, as the usage summary shows it. */
export interface ConsoleUsageFigures {
  turns: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

export type ConsoleUsageBySource = Record<ConsoleUsageSource, ConsoleUsageFigures>;

/** Console usage per source over the rows `where` selects (the usage list's filter: tenant, agent, days). */
export async function readConsoleUsage(db: Pick<PrismaClient, 'consoleUsageDaily'> | TenantTx, where: Prisma.ConsoleUsageDailyWhereInput): Promise<ConsoleUsageBySource> {
  const rows = await db.consoleUsageDaily.groupBy({
    by: ['source'],
    where,
    _sum: { turns: true, llmCalls: true, inputTokens: true, outputTokens: true, cachedInputTokens: true },
  });
  const out = Object.fromEntries(CONSOLE_USAGE_SOURCES.map((s) => [s, { turns: 0, llmCalls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }])) as ConsoleUsageBySource;
  for (const r of rows) {
    if (!(CONSOLE_USAGE_SOURCES as readonly string[]).includes(r.source)) continue;
    out[r.source as ConsoleUsageSource] = {
      turns: r._sum.turns ?? 0,
      llmCalls: Number(r._sum.llmCalls ?? 0n),
      inputTokens: Number(r._sum.inputTokens ?? 0n),
      outputTokens: Number(r._sum.outputTokens ?? 0n),
      cachedInputTokens: Number(r._sum.cachedInputTokens ?? 0n),
    };
  }
  return out;
}

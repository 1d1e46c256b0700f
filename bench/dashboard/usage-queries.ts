import type { PrismaClient } from '@switchboard/db';

// The reads a usage dashboard makes for one tenant over the last `days` days: from the daily
// roll-ups (what /v1/admin/usage is built on), and the same figures straight from the Turn rows
// (what a dashboard without the roll-up would have to do), for contrast.

export async function usageFromRollup(prisma: PrismaClient, tenantId: string, days: number): Promise<number> {
  const since = new Date(Date.now() - days * 86_400_000);
  const [daily, outcomes] = await Promise.all([
    prisma.usageDaily.findMany({
      where: { tenantId, day: { gte: since } },
      orderBy: { day: 'asc' },
      select: {
        agentId: true,
        day: true,
        turns: true,
        deferredTurns: true,
        failedTurns: true,
        llmCalls: true,
        inputTokens: true,
        outputTokens: true,
        cachedInputTokens: true,
        modelMs: true,
        totalMs: true,
        latencyBuckets: true,
      },
    }),
    prisma.usageOutcomeDaily.groupBy({ by: ['code'], where: { tenantId, day: { gte: since } }, _sum: { turns: true } }),
  ]);
  return daily.length + outcomes.length;
}

export async function usageFromTurns(prisma: PrismaClient, tenantId: string, days: number): Promise<number> {
  const since = new Date(Date.now() - days * 86_400_000);
  const rows = await prisma.$queryRaw<{ day: Date }[]>`
    SELECT ("createdAt" AT TIME ZONE 'UTC')::date AS day, "agentId", count(*) AS turns, sum("llmCalls") AS "llmCalls",
           sum("inputTokens") AS "inputTokens", sum("outputTokens") AS "outputTokens", sum("totalMs") AS "totalMs",
           percentile_disc(0.95) WITHIN GROUP (ORDER BY "totalMs") AS p95
      FROM "Turn" WHERE "tenantId" = ${tenantId}::uuid AND "createdAt" >= ${since}
     GROUP BY 1, 2 ORDER BY 1`;
  return rows.length;
}

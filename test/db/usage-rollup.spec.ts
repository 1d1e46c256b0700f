import { LATENCY_BUCKET_COUNT, percentileFromBuckets, recordTurnUsage, type PrismaClient, type TurnUsage } from '@switchboard/db';
import { createTenantFixture, testPrisma, type TenantFixture } from '../support/fixtures';

// jest ignores testTimeout inside a project config; a loaded 2-core machine needs more than 5 s.
jest.setTimeout(30_000);

let prisma: PrismaClient;
let fx: TenantFixture;

beforeAll(async () => {
  prisma = testPrisma();
  fx = await createTenantFixture(prisma);
});

afterAll(() => prisma.$disconnect());

function usage(overrides: Partial<TurnUsage>): TurnUsage {
  return {
    tenantId: fx.tenant.id, agentId: fx.agent.id, at: new Date('2026-12-01T10:00:00Z'),
    llmCalls: 1, inputTokens: 100, outputTokens: 20, cachedInputTokens: 0,
    queueWaitMs: 5, modelMs: 300, toolsMs: 0, commitMs: 4, totalMs: 310,
    outcomeCodes: ['answered'], deferred: false, failed: false,
    ...overrides,
  };
}

describe('recordTurnUsage', () => {
  it('sums concurrent turns into one row per tenant, agent and UTC day, losing no increment', async () => {
    const turns = Array.from({ length: 20 }, (_, i) =>
      usage({ llmCalls: 2, inputTokens: 1000 + i, totalMs: i < 18 ? 400 : 9000, failed: i === 0, deferred: i === 1 }),
    );
    // Each in its own commit transaction, all at once, as parallel workers would.
    await Promise.all(turns.map((t) => prisma.$transaction((tx) => recordTurnUsage(tx, t))));

    const row = await prisma.usageDaily.findUniqueOrThrow({
      where: { tenantId_agentId_day: { tenantId: fx.tenant.id, agentId: fx.agent.id, day: new Date('2026-12-01') } },
    });
    expect(row).toMatchObject({ turns: 20, failedTurns: 1, deferredTurns: 1, llmCalls: 40n, inputTokens: BigInt(20 * 1000 + 190), outputTokens: 400n });
    expect(row.totalMs).toBe(BigInt(18 * 400 + 2 * 9000));
    expect(row.latencyBuckets).toHaveLength(LATENCY_BUCKET_COUNT);
    expect(row.latencyBuckets.reduce((s, n) => s + n, 0)).toBe(20);
    expect(percentileFromBuckets(row.latencyBuckets, 0.5)).toBe(500);
    expect(percentileFromBuckets(row.latencyBuckets, 0.95)).toBe(15000);
  });

  it('counts each outcome code once per turn, per day', async () => {
    const at = new Date('2026-11-30T23:59:59Z');
    await recordTurnUsage(prisma, usage({ at, outcomeCodes: ['answered', 'tool-called', 'answered'] }));
    await recordTurnUsage(prisma, usage({ at, outcomeCodes: ['answered'] }));
    await recordTurnUsage(prisma, usage({ at: new Date('2026-12-01T00:00:00Z'), outcomeCodes: ['provider-timeout'] }));

    const rows = await prisma.usageOutcomeDaily.findMany({
      where: { tenantId: fx.tenant.id, day: new Date('2026-11-30') },
      orderBy: { code: 'asc' },
      select: { code: true, turns: true },
    });
    expect(rows).toEqual([
      { code: 'answered', turns: 2 },
      { code: 'tool-called', turns: 1 },
    ]);
    const nov30 = await prisma.usageDaily.findFirstOrThrow({ where: { tenantId: fx.tenant.id, day: new Date('2026-11-30') } });
    expect(nov30.turns).toBe(2);
  });
});

import {
  LATENCY_BUCKET_COUNT,
  percentileFromBuckets,
  readUsage,
  recordTurnUsage,
  usageSlot,
  USAGE_SLOTS,
  withTenant,
  type PrismaClient,
  type TurnUsage,
} from '@switchboard/db';
import { randomUUID } from 'node:crypto';
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
      where: { tenantId_agentId_day_slot: { tenantId: fx.tenant.id, agentId: fx.agent.id, day: new Date('2026-12-01'), slot: 0 } },
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

describe('roll-up slots', () => {
  it('keeps each session in one slot, spreads sessions over the slots, and reads them back summed', async () => {
    const own = await createTenantFixture(prisma);
    const sessions = Array.from({ length: 24 }, () => randomUUID());
    expect(new Set(sessions.map(usageSlot)).size).toBeGreaterThan(1);
    for (const id of sessions) expect(usageSlot(id)).toBeLessThan(USAGE_SLOTS);

    const at = new Date('2026-09-10T12:00:00Z');
    const base = { tenantId: own.tenant.id, agentId: own.agent.id, at };
    for (const sessionId of sessions) {
      await recordTurnUsage(prisma, usage({ ...base, sessionId, outcomeCodes: ['answered'] }));
      await recordTurnUsage(prisma, usage({ ...base, sessionId, outcomeCodes: ['answered'] }));
    }

    const rows = await prisma.usageDaily.findMany({ where: { tenantId: own.tenant.id }, orderBy: { slot: 'asc' } });
    expect(rows.map((r) => r.slot)).toEqual([...new Set(sessions.map(usageSlot))].sort((a, b) => a - b));
    const report = await readUsage(prisma, { tenantId: own.tenant.id, from: '2026-09-10', to: '2026-09-10' });
    expect(report.days).toHaveLength(1);
    expect(report.days[0]).toMatchObject({ day: '2026-09-10', agentId: own.agent.id, turns: 48, llmCalls: 48, outcomes: { answered: 48 } });
    expect(report.total).toMatchObject({ turns: 48, inputTokens: 4_800, outcomes: { answered: 48 } });
  });
});

describe('readUsage', () => {
  it('reports usage by agent and day and in total, from the roll-ups, inside the tenant scope', async () => {
    const own = await createTenantFixture(prisma);
    const other = await createTenantFixture(prisma);
    const secondAgent = await prisma.agent.create({ data: { tenantId: own.tenant.id, name: 'second' } });
    const base = { tenantId: own.tenant.id, agentId: own.agent.id };
    await recordTurnUsage(prisma, usage({ ...base, at: new Date('2026-10-01T08:00:00Z'), totalMs: 200, outcomeCodes: ['answered'] }));
    await recordTurnUsage(prisma, usage({ ...base, at: new Date('2026-10-01T09:00:00Z'), totalMs: 3000, failed: true, outcomeCodes: ['provider-auth'] }));
    await recordTurnUsage(prisma, usage({ ...base, agentId: secondAgent.id, at: new Date('2026-10-02T09:00:00Z'), totalMs: 50, llmCalls: 3 }));
    await recordTurnUsage(prisma, usage({ ...base, at: new Date('2026-10-05T09:00:00Z') })); // outside the range
    await recordTurnUsage(prisma, usage({ tenantId: other.tenant.id, agentId: other.agent.id, at: new Date('2026-10-01T08:00:00Z') }));

    const report = await withTenant(prisma, own.tenant.id, (tx) =>
      readUsage(tx, { tenantId: own.tenant.id, from: '2026-10-01', to: '2026-10-02' }),
    );
    expect(report.days.map((d) => [d.day, d.agentId, d.turns, d.failedTurns, d.llmCalls, d.outcomes])).toEqual([
      ['2026-10-01', own.agent.id, 2, 1, 2, { answered: 1, 'provider-auth': 1 }],
      ['2026-10-02', secondAgent.id, 1, 0, 3, { answered: 1 }],
    ]);
    expect(report.total).toEqual({
      turns: 3, deferredTurns: 0, failedTurns: 1, llmCalls: 5, inputTokens: 300, outputTokens: 60, cachedInputTokens: 0,
      avgLatencyMs: Math.round((200 + 3000 + 50) / 3), p50LatencyMs: 250, p95LatencyMs: 4000, p99LatencyMs: 4000,
      outcomes: { answered: 2, 'provider-auth': 1 },
    });

    const oneAgent = await readUsage(prisma, { tenantId: own.tenant.id, from: '2026-10-01', to: '2026-10-31', agentId: secondAgent.id });
    expect(oneAgent.total.turns).toBe(1);
    const empty = await readUsage(prisma, { tenantId: own.tenant.id, from: '2026-09-01', to: '2026-09-30' });
    expect(empty).toEqual({ days: [], total: expect.objectContaining({ turns: 0, avgLatencyMs: null, p50LatencyMs: null, outcomes: {} }) });
  });
});

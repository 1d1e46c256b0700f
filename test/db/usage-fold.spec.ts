import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  createPrismaClient,
  foldUsageSlots,
  LATENCY_BUCKET_COUNT,
  readUsage,
  recordTurnUsage,
  usageSlot,
  type PrismaClient,
  type TurnUsage,
} from '@switchboard/db';
import { loadWorkerEnv } from '../../apps/worker/src/config/worker-env';
import { RedisLeaseStore } from '../../apps/worker/src/lease/redis-lease-store';
import { UsageSlotFolder } from '../../apps/worker/src/usage/usage-slot-folder';
import { createTenantFixture, type TenantFixture } from '../support/fixtures';
import { createMigratedDatabase, dropDatabase, uniqueName } from '../support/test-database';
import { deleteQueueKeys } from '../support/queue-keys';

// jest ignores testTimeout inside a project config; a loaded 2-core machine needs more than 5 s.
jest.setTimeout(60_000);

// Folding past days' roll-up slots into one row (sb_fold_usage_slots) changes no figure. The fold
// touches every tenant, so this suite has a database of its own: the run's shared database holds
// other suites' slotted rows.

const dbName = uniqueName('sbt_fold');
let prisma: PrismaClient;
let fx: TenantFixture;

beforeAll(async () => {
  prisma = createPrismaClient({ connectionString: await createMigratedDatabase(dbName), max: 3 });
  fx = await createTenantFixture(prisma);
});

afterAll(async () => {
  await prisma.$disconnect();
  await dropDatabase(dbName);
});

function usage(overrides: Partial<TurnUsage>): TurnUsage {
  return {
    tenantId: fx.tenant.id, agentId: fx.agent.id, at: new Date('2026-11-20T10:00:00Z'),
    llmCalls: 1, inputTokens: 100, outputTokens: 20, cachedInputTokens: 3,
    queueWaitMs: 5, modelMs: 300, toolsMs: 7, commitMs: 4, totalMs: 310,
    outcomeCodes: ['answered'], deferred: false, failed: false,
    ...overrides,
  };
}

/** Four sessions in four different slots, slot 0 among them (found first). */
function spreadSessions(): string[] {
  const found = new Map<number, string>();
  while (found.size < 4) {
    const id = randomUUID();
    const slot = usageSlot(id);
    if (!found.has(slot) && (slot === 0 || found.has(0))) found.set(slot, id);
  }
  return [...found.values()];
}

const rowsOf = (day: string) =>
  prisma.usageDaily.findMany({ where: { tenantId: fx.tenant.id, day: new Date(`${day}T00:00:00Z`) }, orderBy: { slot: 'asc' } });
const outcomeRowsOf = (day: string) =>
  prisma.usageOutcomeDaily.findMany({ where: { tenantId: fx.tenant.id, day: new Date(`${day}T00:00:00Z`) }, orderBy: [{ code: 'asc' }, { slot: 'asc' }] });

describe('sb_fold_usage_slots', () => {
  it("folds the slots of days before the given one into slot 0 without changing a figure, leaving later days' slots", async () => {
    const sessions = spreadSessions();
    const days = ['2026-11-20', '2026-11-21', '2026-11-22'];
    for (const [d, day] of days.entries()) {
      for (const [i, sessionId] of sessions.entries()) {
        await recordTurnUsage(prisma, usage({ at: new Date(`${day}T1${i}:00:00Z`), sessionId, totalMs: 90 + 1000 * i + d, llmCalls: i + 1 }));
        await recordTurnUsage(prisma, usage({ at: new Date(`${day}T1${i}:30:00Z`), sessionId, outcomeCodes: ['answered', `code-${i % 2}`], failed: i === 1, deferred: i === 2 }));
      }
    }
    // A turn without a session lands in slot 0 already: the fold adds to that row.
    await recordTurnUsage(prisma, usage({ at: new Date('2026-11-20T23:00:00Z'), totalMs: 70_000 }));
    const before = await readUsage(prisma, { tenantId: fx.tenant.id, from: days[0], to: days[2] });
    expect((await rowsOf('2026-11-20')).length).toBe(sessions.length);

    const folded = await foldUsageSlots(prisma, new Date('2026-11-22T00:00:00Z'));

    expect(await readUsage(prisma, { tenantId: fx.tenant.id, from: days[0], to: days[2] })).toEqual(before);
    for (const day of ['2026-11-20', '2026-11-21']) {
      const rows = await rowsOf(day);
      expect(rows.map((r) => r.slot)).toEqual([0]);
      expect(rows[0].latencyBuckets).toHaveLength(LATENCY_BUCKET_COUNT);
      const outcomes = await outcomeRowsOf(day);
      expect(outcomes.map((o) => [o.code, o.slot])).toEqual([['answered', 0], ['code-0', 0], ['code-1', 0]]);
    }
    // The given day and later keep their slots (they may still take commits).
    expect((await rowsOf('2026-11-22')).length).toBe(sessions.length);
    expect(folded).toBe(2 + 2 * 3);

    // Nothing left to fold: a second run writes nothing and changes nothing.
    expect(await foldUsageSlots(prisma, new Date('2026-11-22T00:00:00Z'))).toBe(0);
    expect(await readUsage(prisma, { tenantId: fx.tenant.id, from: days[0], to: days[2] })).toEqual(before);
  });

  it('adds the slots to a day folded earlier (late commits after a fold are folded next time)', async () => {
    const sessions = spreadSessions();
    const at = new Date('2026-10-05T08:00:00Z');
    for (const sessionId of sessions) await recordTurnUsage(prisma, usage({ at, sessionId }));
    await foldUsageSlots(prisma, new Date('2026-10-06T00:00:00Z'));
    for (const sessionId of sessions) await recordTurnUsage(prisma, usage({ at, sessionId, inputTokens: 1 }));
    await foldUsageSlots(prisma, new Date('2026-10-06T00:00:00Z'));

    const rows = await rowsOf('2026-10-05');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ slot: 0, turns: 2 * sessions.length, inputTokens: BigInt(101 * sessions.length) });
    expect((await outcomeRowsOf('2026-10-05')).map((o) => [o.code, o.slot, o.turns])).toEqual([['answered', 0, 2 * sessions.length]]);
  });
});

describe('UsageSlotFolder', () => {
  const env = loadWorkerEnv({ ...process.env, DATABASE_URL: 'postgresql://unused', QUEUE_PREFIX: `sbt-fold-${randomUUID()}` });
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(env.REDIS_URL);
  });
  afterAll(async () => {
    await redis.quit();
    await deleteQueueKeys(env.QUEUE_PREFIX);
  });

  it('folds the days before today (UTC) on one worker per interval', async () => {
    const sessions = spreadSessions();
    for (const sessionId of sessions) await recordTurnUsage(prisma, usage({ at: new Date('2026-12-01T22:00:00Z'), sessionId }));
    for (const sessionId of sessions) await recordTurnUsage(prisma, usage({ at: new Date('2026-12-02T01:00:00Z'), sessionId }));
    const store = new RedisLeaseStore(redis);
    const a = new UsageSlotFolder(env, store, prisma as never);
    const b = new UsageSlotFolder(env, store, prisma as never);

    const now = new Date('2026-12-02T03:00:00Z');
    const [first, second] = await Promise.all([a.tick(now), b.tick(now)]);

    // One of the two took the interval's lock and folded; the other stood aside.
    expect([first, second].filter((r) => r === null)).toHaveLength(1);
    expect((await rowsOf('2026-12-01')).map((r) => r.slot)).toEqual([0]);
    expect((await rowsOf('2026-12-02')).length).toBe(sessions.length);
  });
});

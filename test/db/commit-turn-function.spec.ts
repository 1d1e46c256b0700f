import { randomUUID } from 'node:crypto';
import { LATENCY_BUCKET_COUNT, latencyBucketIndex, ModelPrices, usageSlot, type PrismaService } from '@switchboard/db';
import { CommitTurn, type TurnCommit } from '../../apps/worker/src/turns/commit-turn';
import { LoadTurnState } from '../../apps/worker/src/turns/load-turn-state';
import { createTenantFixture, testPrismaService, type TenantFixture } from '../support/fixtures';
import { queueInbound, type SessionRows } from '../integration/worker/support/rows';

jest.setTimeout(30_000);

// sb_commit_turn end to end, on the parts it computes itself: the turn's latency bucket (the same
// as latencyBucketIndex), its outcome codes (on the Turn row and counted once per code in the
// roll-up), a turn without wakes or cost lines, whose inserts it skips, and the next turn's state
// it reads when asked (what a claim after the commit reads).

let prisma: PrismaService;
let fx: TenantFixture;

beforeAll(async () => {
  prisma = testPrismaService();
  fx = await createTenantFixture(prisma);
});
afterAll(() => prisma.$disconnect());

const commit = (c: TurnCommit, opts?: { loadNext?: boolean }) => new CommitTurn(prisma, new ModelPrices(prisma)).execute(c, opts);

/** A session with one queued inbound message, as the API stores it. */
async function queuedMessage(owner: TenantFixture): Promise<{ sessionId: string; messageId: string }> {
  const session = await prisma.session.create({
    data: { tenantId: owner.tenant.id, channelId: owner.channel.id, agentId: owner.agent.id, externalKey: `s-${randomUUID()}` },
  });
  const [messageId] = await queueInbound(prisma, rowsOf(owner, session.id), ['hi']);
  return { sessionId: session.id, messageId };
}

function rowsOf(owner: TenantFixture, sessionId: string): SessionRows {
  return { tenantId: owner.tenant.id, agentId: owner.agent.id, channelId: owner.channel.id, sessionId };
}

function commitOf(owner: TenantFixture, sessionId: string, messageId: string, elapsedMs: number, outcomeCodes: string[]): TurnCommit {
  return {
    turnId: randomUUID(),
    tenantId: owner.tenant.id,
    sessionId,
    channelId: owner.channel.id,
    agentId: owner.agent.id,
    agentVersion: 1,
    provider: { name: 'scripted', model: 'scripted' },
    answered: [messageId],
    inboundStatus: 'answered',
    expectedVersion: 0,
    state: null,
    replies: [{ key: 'r1', text: 'hello', kind: 'text' }],
    usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, outcomeCodes, outcomes: [], trace: [], modelMs: 0, toolsMs: 0 },
    queueWaitMs: 1,
    startedAt: Date.now() - elapsedMs,
    wakes: [],
  };
}

describe('sb_commit_turn', () => {
  // Totals well inside each bucket: the commit's own milliseconds are added to the turn's.
  it.each([
    [40, 0],
    [180, 1],
    [3_000, 5],
    [90_000, LATENCY_BUCKET_COUNT - 1],
  ])('counts a turn of about %i ms in the latency bucket latencyBucketIndex names (%i)', async (elapsedMs, bucket) => {
    const { sessionId, messageId } = await queuedMessage(fx);
    const slot = usageSlot(sessionId);
    const day = new Date(new Date().toISOString().slice(0, 10));
    const where = { tenantId_agentId_day_slot: { tenantId: fx.tenant.id, agentId: fx.agent.id, day, slot } };
    const before = (await prisma.usageDaily.findUnique({ where }))?.latencyBuckets ?? Array<number>(LATENCY_BUCKET_COUNT).fill(0);

    const committed = await commit(commitOf(fx, sessionId, messageId, elapsedMs, ['answered', 'tool-called', 'answered']));

    expect(latencyBucketIndex(committed.totalMs)).toBe(bucket);
    const after = (await prisma.usageDaily.findUniqueOrThrow({ where })).latencyBuckets;
    expect(after.map((n, i) => n - (before[i] ?? 0))).toEqual(Array.from({ length: LATENCY_BUCKET_COUNT }, (_, i) => (i === bucket ? 1 : 0)));
    const turn = await prisma.turn.findUniqueOrThrow({ where: { id: committed.turnId } });
    expect(turn.outcomeCodes).toEqual(['answered', 'tool-called', 'answered']);
    expect(turn.totalMs).toBe(committed.totalMs);
    expect(await prisma.message.findUniqueOrThrow({ where: { id: messageId } })).toMatchObject({ status: 'answered', turnId: committed.turnId });
    expect(await prisma.wake.count({ where: { sessionId } })).toBe(0);
    expect(await prisma.usageCostDaily.count({ where: { tenantId: fx.tenant.id } })).toBe(0);
  });

  it('counts each outcome code once per turn in the roll-up', async () => {
    const own = await createTenantFixture(prisma);
    const { sessionId, messageId } = await queuedMessage(own);
    await commit(commitOf(own, sessionId, messageId, 40, ['answered', 'tool-called', 'answered']));
    const codes = await prisma.usageOutcomeDaily.findMany({ where: { tenantId: own.tenant.id } });
    expect(codes.map((c) => [c.code, c.turns]).sort()).toEqual([
      ['answered', 1],
      ['tool-called', 1],
    ]);
  });

  it("returns the next turn's state, read after its writes, as a claim after it reads it, when asked and a message waits", async () => {
    const { sessionId, messageId } = await queuedMessage(fx);
    const [second] = await queueInbound(prisma, rowsOf(fx, sessionId), ['and then']);
    const first = { ...commitOf(fx, sessionId, messageId, 40, ['answered']), state: { marker: 'after the first turn' } as never };

    const committed = await commit(first, { loadNext: true });

    expect(committed.next).toMatchObject({ id: second, text: 'and then' });
    const claimed = await new LoadTurnState(prisma).claim(fx.tenant.id, sessionId);
    expect(claimed.next).toEqual(committed.next);
    expect(committed.nextState).toEqual(claimed.state);
    // The first turn's writes are in it: the saved state, the bumped version, its messages in the history.
    expect(committed.nextState?.session).toMatchObject({ state: { marker: 'after the first turn', version: 1 }, version: 1 });
    expect(committed.nextState?.history).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);

    // Not asked for, or nothing left waiting: no state.
    const plain = await commit({ ...commitOf(fx, sessionId, second, 40, ['answered']), expectedVersion: 1, replies: [{ key: 'r2', text: 'ok', kind: 'text' }] }, { loadNext: true });
    expect(plain).toMatchObject({ next: null, nextState: null });
    const other = await queuedMessage(fx);
    await queueInbound(prisma, rowsOf(fx, other.sessionId), ['more']);
    const unasked = await commit(commitOf(fx, other.sessionId, other.messageId, 40, ['answered']));
    expect(unasked.next).not.toBeNull();
    expect(unasked.nextState).toBeNull();
  });
});

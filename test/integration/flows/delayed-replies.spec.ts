import { randomUUID } from 'node:crypto';
import { Test, type TestingModule } from '@nestjs/testing';
import { DbModule, PrismaService } from '@switchboard/db';
import { loadWorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { CommitTurn, type TurnCommit } from '../../../apps/worker/src/turns/commit-turn';
import { createSessionRows, queueInbound, unique } from '../worker/support/rows';

// The engine's `afterMs` in the commit: a delayed reply is stored at once with its visibleAt, and
// its webhook delivery is due at that instant, not before (the dispatcher polls nextAttemptAt).

jest.setTimeout(60_000);

describe('commit of replies with afterMs', () => {
  const env = loadWorkerEnv({ ...process.env, QUEUE_PREFIX: unique('sbt-delay') });
  let mod: TestingModule;
  let prisma: PrismaService;

  beforeAll(async () => {
    mod = await Test.createTestingModule({ imports: [DbModule.forRoot({ url: env.DATABASE_URL })], providers: [CommitTurn] }).compile();
    await mod.init();
    prisma = mod.get(PrismaService);
  });

  afterAll(async () => {
    await mod.close();
  });

  it('stores visibleAt per reply and makes each webhook delivery due at its visibleAt', async () => {
    const rows = await createSessionRows(prisma);
    const [inbound] = await queueInbound(prisma, rows, ['oi']);
    // The commit delivers to the channel's webhook as it is then.
    await prisma.channel.update({ where: { id: rows.channelId }, data: { webhookUrl: 'https://example.test/hook' } });
    const startedAt = Date.now();
    const commit: TurnCommit = {
      turnId: randomUUID(),
      ...rows,
      agentVersion: null,
      provider: { name: 'scripted', model: 'test' },
      answered: [inbound],
      inboundStatus: 'answered',
      expectedVersion: 0,
      state: null,
      replies: [
        { key: 'f#1:a:1', text: 'Agora.', kind: 'verbatim' },
        { key: 'f#1:b:1', text: 'Daqui a pouco.', kind: 'verbatim', afterMs: 3000 },
        { key: 'f#1:c:1', text: 'Logo depois.', kind: 'verbatim' },
      ],
      usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, outcomeCodes: [], outcomes: [], trace: [], modelMs: 0, toolsMs: 0 },
      queueWaitMs: 0,
      startedAt,
      wakes: [],
    };

    const committed = await mod.get(CommitTurn).execute(commit);

    const messages = await prisma.message.findMany({
      where: { sessionId: rows.sessionId, direction: 'outbound' },
      orderBy: { seq: 'asc' },
      select: { id: true, text: true, createdAt: true, visibleAt: true, deliveries: { select: { nextAttemptAt: true } } },
    });
    expect(messages.map((m) => m.text)).toEqual(['Agora.', 'Daqui a pouco.', 'Logo depois.']);
    const [now, later, after] = messages;
    expect(now.visibleAt).toBeNull();
    expect(later.visibleAt!.getTime() - now.deliveries[0].nextAttemptAt!.getTime()).toBe(3000);
    // A message after a delayed one waits with it, so the customer reads them in order.
    expect(after.visibleAt).toEqual(later.visibleAt);
    expect(later.deliveries[0].nextAttemptAt).toEqual(later.visibleAt);
    expect(after.deliveries[0].nextAttemptAt).toEqual(later.visibleAt);
    // The worker publishes the delayed ones separately, when they become visible.
    expect(committed.replies.map((r) => r.visibleAt !== undefined)).toEqual([false, true, true]);
  });
});

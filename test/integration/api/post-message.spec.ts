import type { PrismaClient } from '@switchboard/db';
import { sessionChannel, turnJobId, type SessionEvent } from '@switchboard/queue';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startPrivateApi, type PrivateApi } from '../worker/support/private-api';
import { request as requestAt } from './http';
import { jobsOfSession, turnsQueue } from './queue-probe';

// jest ignores testTimeout inside a project config; a loaded 2-core machine needs more than 5 s.
jest.setTimeout(30_000);

let prisma: PrismaClient;
let queue: Queue;
let publisher: Redis;
let fx: TenantFixture;
// Its own API and queue: these tests read their jobs and messages as still queued, and the shared
// queue has workers of other suites (the browser tests) taking its jobs now and then.
let api: PrivateApi;

const request: typeof requestAt = (method, path, opts = {}) => requestAt(method, path, { ...opts, baseUrl: api.baseUrl });

beforeAll(async () => {
  prisma = testPrisma();
  api = await startPrivateApi();
  queue = turnsQueue(api.queuePrefix);
  publisher = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  fx = await createTenantFixture(prisma);
});

afterAll(async () => {
  await queue.close();
  await api?.stop();
  publisher.disconnect();
  await prisma.$disconnect();
});

describe('POST /v1/messages', () => {
  it('answers 202 with the ids, stores the session and the queued message, and enqueues its turn job', async () => {
    const session = `s-${uniqueSuffix()}`;
    const res = await request('POST', '/v1/messages', { key: fx.apiKey, json: { session, text: 'Olá' } });

    expect(res.status).toBe(202);
    expect(res.body).toEqual({ messageId: expect.any(String), sessionId: expect.any(String), status: 'queued' });
    const { messageId, sessionId } = res.body;

    const stored = await prisma.session.findUniqueOrThrow({ where: { id: sessionId } });
    expect(stored).toMatchObject({ tenantId: fx.tenant.id, channelId: fx.channel.id, agentId: fx.agent.id, externalKey: session });
    const message = await prisma.message.findUniqueOrThrow({ where: { id: messageId } });
    expect(message).toMatchObject({
      tenantId: fx.tenant.id,
      sessionId,
      channelId: fx.channel.id,
      direction: 'inbound',
      status: 'queued',
      text: 'Olá',
      externalId: null,
    });

    const job = await queue.getJob(turnJobId(messageId));
    expect(job?.data).toEqual({ tenantId: fx.tenant.id, sessionId, messageId, acceptedAt: message.createdAt.getTime() });
  });

  it('puts later messages of the same conversation on the same session', async () => {
    const session = `s-${uniqueSuffix()}`;
    const first = await request('POST', '/v1/messages', { key: fx.apiKey, json: { session, text: 'one' } });
    const second = await request('POST', '/v1/messages', { key: fx.apiKey, json: { session, text: 'two' } });
    expect(second.status).toBe(202);
    expect(second.body.sessionId).toBe(first.body.sessionId);
    expect(second.body.messageId).not.toBe(first.body.messageId);
    expect(await prisma.session.count({ where: { channelId: fx.channel.id, externalKey: session } })).toBe(1);
  });

  it('answers a repeated channel message id with the first message, writing and enqueueing nothing', async () => {
    const session = `s-${uniqueSuffix()}`;
    const id = `wamid-${uniqueSuffix()}`;
    const first = await request('POST', '/v1/messages', { key: fx.apiKey, json: { session, text: 'hi', id } });
    const again = await request('POST', '/v1/messages', { key: fx.apiKey, json: { session, text: 'hi', id } });

    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(await prisma.message.count({ where: { channelId: fx.channel.id, externalId: id } })).toBe(1);
    expect(await jobsOfSession(queue, first.body.sessionId)).toHaveLength(1);
  });

  // Issue #16 item 7: the retried id used to answer with the first message's ids and drop the new text.
  it('answers 409 idempotency-key-reused to a repeated message id with another session or text, storing nothing', async () => {
    const session = `s-${uniqueSuffix()}`;
    const id = `reused-${uniqueSuffix()}`;
    const first = await request('POST', '/v1/messages', { key: fx.apiKey, json: { session, text: 'first', id } });
    const otherText = await request('POST', '/v1/messages', { key: fx.apiKey, json: { session, text: 'second', id } });
    const otherSession = await request('POST', '/v1/messages', { key: fx.apiKey, json: { session: `${session}-b`, text: 'first', id } });

    expect(first.status).toBe(202);
    for (const res of [otherText, otherSession]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: { code: 'idempotency-key-reused', message: expect.stringContaining('Use a new id'), details: [expect.objectContaining({ location: 'body', path: 'id' })] } });
    }
    expect(await prisma.message.findMany({ where: { channelId: fx.channel.id, externalId: id }, select: { text: true } })).toEqual([{ text: 'first' }]);
    expect(await prisma.session.count({ where: { channelId: fx.channel.id, externalKey: `${session}-b` } })).toBe(0);
    expect(await jobsOfSession(queue, first.body.sessionId)).toHaveLength(1);
  });

  it('stores one message when the same id arrives several times at once', async () => {
    const session = `s-${uniqueSuffix()}`;
    const id = `race-${uniqueSuffix()}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => request('POST', '/v1/messages', { key: fx.apiKey, json: { session, text: 'burst', id } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(202));
    expect(new Set(answers.map((a) => a.body.messageId)).size).toBe(1);
    expect(await prisma.message.count({ where: { channelId: fx.channel.id, externalId: id } })).toBe(1);
    expect(await prisma.session.count({ where: { channelId: fx.channel.id, externalKey: session } })).toBe(1);
    expect(await jobsOfSession(queue, answers[0].body.sessionId)).toHaveLength(1);
  });

  it('creates one session when the first messages of a new conversation race', async () => {
    const session = `s-${uniqueSuffix()}`;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => request('POST', '/v1/messages', { key: fx.apiKey, json: { session, text: `m${i}` } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(202));
    expect(new Set(answers.map((a) => a.body.sessionId)).size).toBe(1);
    expect(await prisma.message.count({ where: { sessionId: answers[0].body.sessionId } })).toBe(5);
  });

  it('the same message id on another channel is another message', async () => {
    const other = await createTenantFixture(prisma);
    const id = `shared-${uniqueSuffix()}`;
    const a = await request('POST', '/v1/messages', { key: fx.apiKey, json: { session: 's', text: 'x', id } });
    const b = await request('POST', '/v1/messages', { key: other.apiKey, json: { session: 's', text: 'x', id } });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(b.body.messageId).not.toBe(a.body.messageId);
    expect(b.body.sessionId).not.toBe(a.body.sessionId);
  });
});

describe('POST /v1/messages?wait', () => {
  it('answers 202 "queued" after about the wait when no reply is committed', async () => {
    const res = await request('POST', '/v1/messages?wait=1', {
      key: fx.apiKey,
      json: { session: `s-${uniqueSuffix()}`, text: 'anyone there?' },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ messageId: expect.any(String), sessionId: expect.any(String), status: 'queued' });
    expect(res.elapsedMs).toBeGreaterThanOrEqual(950);
    expect(res.elapsedMs).toBeLessThan(10_000);
  });

  it('answers 200 with the replies when the commit event for the message is published', async () => {
    const session = `s-${uniqueSuffix()}`;
    const pending = request('POST', '/v1/messages?wait=10', { key: fx.apiKey, json: { session, text: 'ping' } });

    // Act as the worker: find the stored message, then publish its commit on the session channel
    // until the waiting request has picked it up.
    const message = await eventually(() =>
      prisma.message.findFirst({ where: { channelId: fx.channel.id, session: { externalKey: session } } }),
    );
    const event: SessionEvent = {
      type: 'committed',
      turnId: '00000000-0000-4000-8000-000000000000',
      answered: [message.id],
      replies: [{ id: '11111111-1111-4111-8111-111111111111', text: 'pong' }],
    };
    const unrelated: SessionEvent = { ...event, answered: ['22222222-2222-4222-8222-222222222222'], replies: [{ id: 'x', text: 'not yours' }] };
    let settled = false;
    void pending.then(() => (settled = true));
    while (!settled) {
      await publisher.publish(sessionChannel(message.sessionId), JSON.stringify(unrelated));
      await publisher.publish(sessionChannel(message.sessionId), JSON.stringify(event));
      await new Promise((r) => setTimeout(r, 100));
    }
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      messageId: message.id,
      sessionId: message.sessionId,
      status: 'answered',
      replies: [{ id: '11111111-1111-4111-8111-111111111111', text: 'pong' }],
    });
    expect(res.elapsedMs).toBeLessThan(9000);
  });

  it('answers 200 at once from Postgres when the message was answered before the request (a retried id)', async () => {
    const session = `s-${uniqueSuffix()}`;
    const id = `done-${uniqueSuffix()}`;
    const first = await request('POST', '/v1/messages', { key: fx.apiKey, json: { session, text: 'book', id } });
    const { messageId, sessionId } = first.body;
    // Commit a turn the way the worker does: replies and the answered inbound share the turn id.
    const turn = await prisma.turn.create({
      data: { tenantId: fx.tenant.id, sessionId, agentId: fx.agent.id, provider: 'scripted', model: 'scripted', llmCalls: 1 },
    });
    const reply = await prisma.message.create({
      data: {
        tenantId: fx.tenant.id, sessionId, channelId: fx.channel.id, direction: 'outbound', status: 'sent',
        text: 'Booked.', key: `r-${uniqueSuffix()}`, turnId: turn.id,
      },
    });
    await prisma.message.update({ where: { id: messageId }, data: { status: 'answered', answeredAt: new Date(), turnId: turn.id } });

    const again = await request('POST', '/v1/messages?wait=10', { key: fx.apiKey, json: { session, text: 'book', id } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ messageId, sessionId, status: 'answered', replies: [{ id: reply.id, text: 'Booked.' }] });
    expect(again.elapsedMs).toBeLessThan(6000); // far below the 10 s it would wait for an event
  });

  it('wait=0 is valid and does not wait', async () => {
    const res = await request('POST', '/v1/messages?wait=0', { key: fx.apiKey, json: { session: `s-${uniqueSuffix()}`, text: 'hi' } });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('queued');
    expect(res.elapsedMs).toBeLessThan(3000);
  });
});

async function eventually<T>(fn: () => Promise<T | null>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

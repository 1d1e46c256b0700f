import { conciergeScript } from '@falai/agent';
import { conciergeAgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { sessionChannel } from '@switchboard/queue';
import { Redis } from 'ioredis';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { SseClient } from '../../support/sse-client';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, eventually, startPrivateApi, type PrivateApi } from '../worker/support/private-api';

// GET /v1/sessions/:id/stream end to end: a private API (own QUEUE_PREFIX, so no other suite's
// worker takes these jobs), a real worker process with the Concierge agent, and a plain node
// http SSE client.

jest.setTimeout(180_000);

describe('GET /v1/sessions/:id/stream', () => {
  let api: PrivateApi;
  let prisma: PrismaClient;
  let fx: TenantFixture;
  let other: TenantFixture;
  let redis: Redis;
  let worker: WorkerProcess | undefined;
  const clients: SseClient[] = [];

  beforeAll(async () => {
    api = await startPrivateApi();
    prisma = testPrisma();
    redis = new Redis(process.env.REDIS_URL!);
    // Model latency so the reply streams over a visible stretch of time.
    fx = await createTenantFixture(prisma, {
      agentConfig: { ...conciergeAgentConfig, provider: { ...conciergeAgentConfig.provider, scripted: { ...conciergeScript, latencyMs: 300 } } },
    });
    other = await createTenantFixture(prisma, { agentConfig: conciergeAgentConfig });
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await worker?.kill();
    await api?.stop();
    await redis?.quit();
    await prisma?.$disconnect();
  });

  function client(): SseClient {
    const c = new SseClient();
    clients.push(c);
    return c;
  }

  async function subscribers(sessionId: string): Promise<number> {
    const [, count] = (await redis.pubsub('NUMSUB', sessionChannel(sessionId))) as [string, number];
    return Number(count);
  }

  it('relays the deltas and then the committed reply of a streamed turn, and unsubscribes when the client leaves', async () => {
    // Queued before any worker runs, so the stream is open before the turn starts.
    const posted = await call<{ sessionId: string; messageId: string }>(api, 'POST', '/v1/messages', fx.apiKey, {
      session: `sse-${uniqueSuffix()}`,
      text: 'Quero um quarto em Curitiba',
    });
    expect(posted.status).toBe(202);
    const { sessionId, messageId } = posted.body;

    const sse = client();
    await sse.open(`${api.baseUrl}/v1/sessions/${sessionId}/stream`, fx.apiKey);
    expect(sse.status).toBe(200);
    expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(sse.headers['cache-control']).toContain('no-cache');
    expect(await subscribers(sessionId)).toBe(1);

    worker = await startWorker({ QUEUE_PREFIX: api.queuePrefix });
    const committed = await sse.until(() => sse.events.find((e) => e.event === 'committed'));

    const reply = 'A diária em Curitiba sai por R$ 420. Posso reservar?';
    expect(committed.data).toEqual({
      turnId: expect.any(String),
      answered: [messageId],
      replies: [{ id: expect.any(String), text: reply }],
      status: 'answered',
    });
    const deltas = sse.events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.every((d) => d.data.turnId === committed.data.turnId)).toBe(true);
    expect(deltas.map((d) => d.data.delta).join('')).toContain(reply);
    // Deltas first, the commit last.
    expect(sse.events.indexOf(committed)).toBe(sse.events.length - 1);
    const stored = await prisma.message.findFirstOrThrow({ where: { sessionId, direction: 'outbound' } });
    expect((committed.data.replies as { id: string }[])[0].id).toBe(stored.id);

    sse.close();
    await eventually(async () => (await subscribers(sessionId)) === 0, 30_000);
  });

  it('resumes after Last-Event-ID: a client that was away gets each turn it missed once, in order, and nothing it had', async () => {
    worker ??= await startWorker({ QUEUE_PREFIX: api.queuePrefix });
    const session = `sse-resume-${uniqueSuffix()}`;
    const post = async (text: string) => {
      const posted = await call<{ sessionId: string; messageId: string }>(api, 'POST', '/v1/messages', fx.apiKey, { session, text });
      await eventually(async () => (await prisma.message.findUniqueOrThrow({ where: { id: posted.body.messageId } })).status === 'answered');
      return posted.body;
    };
    const first = await post('Quero um quarto em Curitiba');
    const url = `${api.baseUrl}/v1/sessions/${first.sessionId}/stream`;

    // Away from the start: everything so far, once.
    const fromStart = client();
    await fromStart.open(url, fx.apiKey, { 'last-event-id': '0-0' });
    const one = await fromStart.until(() => fromStart.events.find((e) => e.event === 'committed'));
    expect(one.data).toMatchObject({ answered: [first.messageId], replies: [{ text: expect.any(String) }], status: 'answered' });
    expect(one.id).toMatch(/^\d+-\d+$/);
    await fromStart.until(() => fromStart.events.length >= 2);
    expect(fromStart.events.map((e) => e.event)).toEqual(['committed', 'session']);
    expect(fromStart.events[1].data).toEqual({ status: 'active' });
    fromStart.close();

    // Away while the next turn ran: only that turn comes, with a later cursor.
    const second = await post('E em Floripa?');
    const resumed = client();
    await resumed.open(url, fx.apiKey, { 'last-event-id': one.id! });
    const two = await resumed.until(() => resumed.events.find((e) => e.event === 'committed'));
    expect(two.data.answered).toEqual([second.messageId]);
    const stored = await prisma.message.findMany({ where: { sessionId: first.sessionId, direction: 'outbound' }, orderBy: { seq: 'asc' } });
    expect((two.data.replies as { id: string }[]).map((r) => r.id)).toEqual([stored[stored.length - 1].id]);
    await new Promise((r) => setTimeout(r, 500));
    expect(resumed.events.filter((e) => e.event === 'committed')).toHaveLength(1);
    resumed.close();

    // Up to date: nothing is sent again.
    const current = client();
    await current.open(url, fx.apiKey, { 'last-event-id': two.id! });
    await new Promise((r) => setTimeout(r, 500));
    expect(current.events.map((e) => e.event)).toEqual(['session']);
    current.close();

    const bad = await fetch(url, { headers: { authorization: `Bearer ${fx.apiKey}`, 'last-event-id': 'yesterday' } });
    expect([bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([400, 'invalid-last-event-id']);
  });

  it('a resumed stream says how each missed turn ended: failed with the fallback, deferred with retryAt and the holding message', async () => {
    worker ??= await startWorker({ QUEUE_PREFIX: api.queuePrefix });
    const understand = conciergeScript.rules.filter((r) => r.call === 'understand');
    const agent = (speakFail: { kind: 'auth' | 'overloaded'; message: string }) => ({
      ...conciergeAgentConfig,
      fallbackMessage: 'Desculpe, tente de novo mais tarde.',
      holdingMessage: 'Um momento, já respondo.',
      provider: { ...conciergeAgentConfig.provider, scripted: { rules: [...understand, { call: 'speak' as const, fail: speakFail }] } },
    });
    const cases = [
      { fail: { kind: 'auth' as const, message: 'bad key' }, expected: { status: 'failed', replies: [{ id: expect.any(String), text: 'Desculpe, tente de novo mais tarde.' }] } },
      {
        fail: { kind: 'overloaded' as const, message: 'HTTP 500' },
        expected: { status: 'deferred', retryAt: expect.any(String), replies: [{ id: expect.any(String), text: 'Um momento, já respondo.' }] },
      },
    ];
    for (const { fail, expected } of cases) {
      const tenant = await createTenantFixture(prisma, { agentConfig: agent(fail) });
      const posted = await call<{ sessionId: string; messageId: string }>(api, 'POST', '/v1/messages', tenant.apiKey, { session: `sse-how-${uniqueSuffix()}`, text: 'Quero um quarto em Curitiba' });
      await eventually(async () => (await prisma.message.findUniqueOrThrow({ where: { id: posted.body.messageId } })).status !== 'queued');

      const resumed = client();
      await resumed.open(`${api.baseUrl}/v1/sessions/${posted.body.sessionId}/stream`, tenant.apiKey, { 'last-event-id': '0-0' });
      const caughtUp = await resumed.until(() => resumed.events.find((e) => e.event === 'committed'));
      expect(caughtUp.data).toEqual({ turnId: expect.any(String), answered: [posted.body.messageId], ...expected });
      resumed.close();
    }
  });

  it('a live stream shows the holding message of an understand deferral when it is sent, then the answer, each once', async () => {
    worker ??= await startWorker({ QUEUE_PREFIX: api.queuePrefix });
    const holding = 'Um momento, já respondo.';
    const tenant = await createTenantFixture(prisma, {
      agentConfig: {
        ...conciergeAgentConfig,
        holdingMessage: holding,
        // Slow calls, so the stream is open before the first understand call fails.
        provider: {
          ...conciergeAgentConfig.provider,
          scripted: { latencyMs: 1_500, rules: [{ call: 'understand', fail: { kind: 'overloaded', message: 'HTTP 500' }, times: 1 }, ...conciergeScript.rules] },
        },
      },
    });
    const posted = await call<{ sessionId: string; messageId: string }>(api, 'POST', '/v1/messages', tenant.apiKey, { session: `sse-hold-${uniqueSuffix()}`, text: 'Quero um quarto em Curitiba' });
    const live = client();
    await live.open(`${api.baseUrl}/v1/sessions/${posted.body.sessionId}/stream`, tenant.apiKey);

    await live.until(() => live.events.find((e) => e.event === 'committed' && e.data.status === 'answered'));
    const told = live.events
      .filter((e) => e.event === 'committed' || e.event === 'deferred')
      .map((e) => ({ event: e.event, status: e.data.status, replies: (e.data.replies as { text: string }[] | undefined)?.map((r) => r.text) }));
    expect(told).toEqual([
      { event: 'committed', status: 'deferred', replies: [holding] },
      { event: 'deferred', status: undefined, replies: undefined },
      { event: 'committed', status: 'answered', replies: ['A diária em Curitiba sai por R$ 420. Posso reservar?'] },
    ]);
    const deferral = live.events.find((e) => e.event === 'committed')!;
    expect(deferral.data).toMatchObject({ answered: [], retryAt: expect.any(String) });
    expect(live.events.find((e) => e.event === 'deferred')!.data).toEqual({ waiting: [posted.body.messageId], retryAt: deferral.data.retryAt });
    live.close();
  });

  it('answers 404 session-not-found for another tenant’s session and for malformed ids, 401 without a key', async () => {
    const posted = await call<{ sessionId: string }>(api, 'POST', '/v1/messages', other.apiKey, {
      session: `sse-other-${uniqueSuffix()}`,
      text: 'oi',
    });
    for (const id of [posted.body.sessionId, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await fetch(`${api.baseUrl}/v1/sessions/${id}/stream`, { headers: { authorization: `Bearer ${fx.apiKey}` } });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 'session-not-found', message: expect.any(String) } });
    }
    const anonymous = await fetch(`${api.baseUrl}/v1/sessions/${posted.body.sessionId}/stream`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('missing-api-key');
    expect(await subscribers(posted.body.sessionId)).toBe(0);
  });
});

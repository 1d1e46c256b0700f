import { generateApiKey } from '@switchboard/db';
import { sessionChannel, type SessionEvent } from '@switchboard/queue';
import { Redis } from 'ioredis';
import { bookingCode } from '../../../apps/worker/src/actions/builtin/confirm-booking.action';
import { call, eventually } from '../worker/support/private-api';
import { FOLLOW_UP } from './support/flow-agent';
import { outboundTexts, replyArrives, startFlowWorld, type FlowWorld } from './support/flow-world';

// POST /v1/events and POST /v1/sessions/:id/start end to end (private API + real worker
// process): an event a flow waits on lets it go on, a manual start runs a flow whose `do` step
// calls the worker's registered confirm_booking action, the short wait before the goodbye holds
// that message back (Message.visibleAt), retries run nothing twice, and bad inputs are 4xx with
// codes that store nothing.

jest.setTimeout(240_000);

type ErrorBody = { error: { code: string; details?: { path: string; issue: string }[] } };

describe('flow inputs over the channel API (real worker process)', () => {
  let world: FlowWorld;

  beforeAll(async () => {
    world = await startFlowWorld();
  });

  const cleanups: (() => Promise<void>)[] = [];

  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    await world?.stop();
  });

  const key = () => world.fixture.apiKey;

  async function newSession(externalKey: string, text: string, first: string): Promise<string> {
    const res = await call<{ sessionId: string; replies?: { text: string }[] }>(world.api, 'POST', '/v1/messages?wait=30', key(), {
      session: externalKey,
      text,
      id: `${externalKey}-m1`,
    });
    expect(res.body.replies?.map((r) => r.text)).toEqual([first]);
    return res.body.sessionId;
  }

  it('POST /v1/events: a flow waiting for the event goes on, once however often the event is retried', async () => {
    const sessionId = await newSession('ev-1', 'meu pedido', FOLLOW_UP.waitingPayment);
    const body = { session: 'ev-1', event: 'pagamento.aprovado', key: 'pay-77' };

    const first = await call(world.api, 'POST', '/v1/events', key(), body);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ eventId: expect.any(String), sessionId, status: 'queued', duplicate: false });
    await replyArrives(world.prisma, sessionId, FOLLOW_UP.paid);

    const retry = await call(world.api, 'POST', '/v1/events', key(), body);
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual({ eventId: first.body.eventId, sessionId, status: 'processed', duplicate: true });
    expect(await outboundTexts(world.prisma, sessionId)).toEqual([FOLLOW_UP.waitingPayment, FOLLOW_UP.paid]);
    const turns = await world.prisma.turn.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' }, select: { outcomeCodes: true } });
    expect(turns.map((t) => t.outcomeCodes)).toEqual([expect.arrayContaining(['waiting']), expect.arrayContaining(['event-arrived', 'said'])]);
  });

  it('POST /v1/sessions/:id/start runs the flow: its do step calls confirm_booking, and the goodbye waits for its afterMs', async () => {
    const sessionId = await newSession('st-1', 'meu pedido', FOLLOW_UP.waitingPayment);
    // What `?wait` and the SSE stream hear: the commit's visible replies, then the delayed one on its own.
    const subscriber = new Redis(process.env.REDIS_URL!);
    cleanups.push(() => subscriber.quit().then(() => undefined));
    const heard: SessionEvent[] = [];
    subscriber.on('message', (_channel: string, raw: string) => heard.push(JSON.parse(raw) as SessionEvent));
    await subscriber.subscribe(sessionChannel(sessionId));
    const res = await call(world.api, 'POST', `/v1/sessions/${sessionId}/start`, key(), { flow: 'confirmar', key: 'start-1' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ startId: expect.any(String), sessionId, flow: 'confirmar', status: 'queued', duplicate: false });

    const codigo = bookingCode('confirmar#start-1:reserva:1');
    const confirmation = `Reserva confirmada em Lisboa. Código: ${codigo}.`;
    await replyArrives(world.prisma, sessionId, FOLLOW_UP.bye);
    const rows = await world.prisma.message.findMany({
      where: { sessionId, direction: 'outbound', text: { in: [confirmation, FOLLOW_UP.bye] } },
      orderBy: { seq: 'asc' },
      select: { text: true, createdAt: true, visibleAt: true },
    });
    expect(rows.map((r) => r.text)).toEqual([confirmation, FOLLOW_UP.bye]);
    expect(rows[0].visibleAt).toBeNull();
    expect(rows[1].visibleAt!.getTime() - rows[1].createdAt.getTime()).toBeGreaterThanOrEqual(900);
    const session = await world.prisma.session.findUniqueOrThrow({ where: { id: sessionId }, select: { state: true } });
    expect((session.state as { data: Record<string, unknown> }).data.reserva).toBe(codigo);

    // The channel's reading of the conversation shows the goodbye only once its time has come.
    const shown = await eventually(async () => {
      const page = await call<{ messages: { text: string }[] }>(world.api, 'GET', `/v1/sessions/${sessionId}/messages`, key());
      const texts = page.body.messages.map((m) => m.text);
      return texts.includes(FOLLOW_UP.bye) && texts;
    });
    expect(shown.slice(-2)).toEqual([confirmation, FOLLOW_UP.bye]);
    const committed = await eventually(async () => {
      const events = heard.filter((e) => e.type === 'committed');
      return events.length >= 2 && events;
    });
    expect(committed.map((e) => e.type === 'committed' && e.replies.map((r) => r.text))).toEqual([[confirmation], [FOLLOW_UP.bye]]);

    const retry = await call(world.api, 'POST', `/v1/sessions/${sessionId}/start`, key(), { flow: 'confirmar', key: 'start-1' });
    expect(retry.body).toMatchObject({ startId: res.body.startId, status: 'processed', duplicate: true });
    expect((await outboundTexts(world.prisma, sessionId)).filter((t) => t === FOLLOW_UP.bye)).toHaveLength(1);
  });

  it('runs an event on a session handed to a person silenced: the wait goes on, nothing is sent', async () => {
    const sessionId = await newSession('ho-1', 'meu pedido', FOLLOW_UP.waitingPayment);
    await world.prisma.session.update({ where: { id: sessionId }, data: { status: 'handed_off' } });
    const res = await call(world.api, 'POST', '/v1/events', key(), { session: 'ho-1', event: 'pagamento.aprovado', key: 'pay-ho' });
    expect(res.status).toBe(202);

    const fired = await eventually(async () => {
      const w = await world.prisma.wake.findFirst({ where: { sessionId, key: { startsWith: 'input:' } }, select: { status: true } });
      return w && w.status !== 'scheduled' && w;
    }, 90_000);
    expect(fired.status).toBe('fired');
    const last = await world.prisma.turn.findFirstOrThrow({ where: { sessionId }, orderBy: { createdAt: 'desc' }, select: { outcomeCodes: true } });
    expect(last.outcomeCodes).toEqual(expect.arrayContaining(['event-arrived', 'silent']));
    expect(await outboundTexts(world.prisma, sessionId)).toEqual([FOLLOW_UP.waitingPayment]);
  });

  describe('bad inputs answer 4xx with a code and store nothing', () => {
    let sessionId: string;
    let before: number;

    beforeAll(async () => {
      sessionId = await newSession('bad-1', 'meu pedido', FOLLOW_UP.waitingPayment);
    });

    beforeEach(async () => {
      before = await world.prisma.wake.count({ where: { tenantId: world.fixture.tenant.id } });
    });

    afterEach(async () => {
      expect(await world.prisma.wake.count({ where: { tenantId: world.fixture.tenant.id } })).toBe(before);
    });

    it.each([
      ['no key', { session: 'bad-1', event: 'pagamento.aprovado' }, 'key'],
      ['an event name with spaces', { session: 'bad-1', event: 'pagamento aprovado', key: 'k' }, 'event'],
      ['an unknown field', { session: 'bad-1', event: 'x', key: 'k', extra: 1 }, 'extra'],
      ['data that is not flat', { session: 'bad-1', event: 'x', key: 'k', data: { cidade: { a: 1 } } }, 'data.cidade'],
    ])('POST /v1/events with %s → 400 validation-failed', async (_what, body, path) => {
      const res = await call<ErrorBody>(world.api, 'POST', '/v1/events', key(), body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation-failed');
      expect(res.body.error.details?.map((d) => d.path)).toContain(path);
    });

    it('POST /v1/events with data for a field the agent lacks → 422 invalid-event-data', async () => {
      const res = await call<ErrorBody>(world.api, 'POST', '/v1/events', key(), {
        session: 'bad-new-session',
        event: 'x',
        key: 'k',
        data: { sobrenome: 'Silva' },
      });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'invalid-event-data', details: [{ path: 'data.sobrenome', issue: 'unknown-field' }] });
      // Not even the session of a refused event is created.
      expect(await world.prisma.session.count({ where: { channelId: world.fixture.channel.id, externalKey: 'bad-new-session' } })).toBe(0);
    });

    it('the same event key with other data → 409 idempotency-key-reused', async () => {
      const first = await call(world.api, 'POST', '/v1/events', key(), { session: 'bad-1', event: 'outro', key: 'dup', data: { cidade: 'Rio' } });
      expect(first.status).toBe(202);
      before += 1;
      const res = await call<ErrorBody>(world.api, 'POST', '/v1/events', key(), { session: 'bad-1', event: 'outro', key: 'dup', data: { cidade: 'Lima' } });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('idempotency-key-reused');
    });

    it('POST /v1/sessions/:id/start with an unknown flow → 422 unknown-flow', async () => {
      const res = await call<ErrorBody>(world.api, 'POST', `/v1/sessions/${sessionId}/start`, key(), { flow: 'nao-existe', key: 'k' });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'unknown-flow', details: [{ path: 'flow' }] });
    });

    it.each([
      ['a malformed id', 'not-a-uuid'],
      ['an unknown id', '00000000-0000-4000-8000-000000000000'],
    ])('POST /v1/sessions/:id/start with %s → 404 session-not-found', async (_what, id) => {
      const res = await call<ErrorBody>(world.api, 'POST', `/v1/sessions/${id}/start`, key(), { flow: 'confirmar', key: 'k' });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('session-not-found');
    });

    it("POST /v1/sessions/:id/start with another channel's key (same tenant) → 404 session-not-found", async () => {
      const { tenant, agent } = world.fixture;
      const other = await world.prisma.channel.create({ data: { tenantId: tenant.id, agentId: agent.id, name: 'outro' } });
      const otherKey = generateApiKey();
      await world.prisma.apiKey.create({
        data: { tenantId: tenant.id, channelId: other.id, name: 'outro', prefix: otherKey.prefix, keyHash: otherKey.hash },
      });
      const res = await call<ErrorBody>(world.api, 'POST', `/v1/sessions/${sessionId}/start`, otherKey.key, { flow: 'confirmar', key: 'k' });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('session-not-found');
    });

    it('POST /v1/sessions/:id/start without a key → 400 validation-failed', async () => {
      const res = await call<ErrorBody>(world.api, 'POST', `/v1/sessions/${sessionId}/start`, key(), { flow: 'confirmar' });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation-failed');
    });

    it('without an API key → 401 missing-api-key', async () => {
      const res = await fetch(`${world.api.baseUrl}/v1/events`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as ErrorBody).error.code).toBe('missing-api-key');
    });
  });
});

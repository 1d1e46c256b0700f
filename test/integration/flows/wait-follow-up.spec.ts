import { call, eventually } from '../worker/support/private-api';
import { FOLLOW_UP } from './support/flow-agent';
import { outboundTexts, outcomeCodes, replyArrives, startFlowWorld, type FlowWorld } from './support/flow-world';
import { holdPostgresModeSlot } from '../../support/postgres-mode-slot';

// Acceptance of issue #8's platform side: a flow that waits "2s" for a reply. With no reply the
// engine's wake becomes a delayed job (keyed by the wake key, stored as a Wake row in the turn's
// commit) and the real worker process runs it through the session lease: the follow-up arrives.
// A reply in time takes the wait's `else` instead, and the old wake goes stale.

jest.setTimeout(240_000);

// On Redis, and in Postgres mode (REDIS_URL unset: the queue is BullMQ's Postgres backend).
describe.each([
  ['redis', {}],
  ['postgres', { REDIS_URL: '' }],
] as const)('a flow waiting 2 s for a reply (real worker process, %s)', (_backend, backendEnv) => {
  holdPostgresModeSlot(backendEnv);
  let world: FlowWorld;

  beforeAll(async () => {
    world = await startFlowWorld(backendEnv);
  });

  afterAll(async () => {
    await world?.stop();
  });

  function post(session: string, text: string, id: string) {
    return call<{ sessionId: string; status: string; replies?: { text: string }[] }>(
      world.api,
      'POST',
      '/v1/messages?wait=30',
      world.fixture.apiKey,
      { session, text, id },
    );
  }

  it('sends the follow-up through the delayed wake job when nobody answers', async () => {
    const first = await post('no-reply', 'quero reservar', 'nr-1');
    expect(first.status).toBe(200);
    expect(first.body.replies?.map((r) => r.text)).toEqual([FOLLOW_UP.ask]);
    const { sessionId } = first.body;

    const texts = await replyArrives(world.prisma, sessionId, FOLLOW_UP.followUp);
    expect(texts).toEqual([FOLLOW_UP.ask, FOLLOW_UP.followUp]);

    // The wake was a Wake row, fired by the commit of the turn its job ran.
    const wakes = await world.prisma.wake.findMany({ where: { sessionId }, select: { key: true, status: true } });
    expect(wakes).toEqual([{ key: expect.stringMatching(/^acompanhamento#[0-9a-f-]{36}:espera:\d+$/), status: 'fired' }]);
    const codes = await outcomeCodes(world.prisma, sessionId);
    expect(codes[0]).toEqual(expect.arrayContaining(['said', 'waiting']));
    expect(codes[1]).toEqual(expect.arrayContaining(['no-reply', 'said']));
    expect(codes[1]).not.toContain('replied');
  });

  it('takes the else path when the customer replies within the 2 s', async () => {
    const first = await post('replies', 'quero reservar', 'rp-1');
    expect(first.status).toBe(200);
    const { sessionId } = first.body;
    // Accepted before the wake is due: the wake job drains queued messages before it runs.
    const reply = await post('replies', 'sim, ainda quero', 'rp-2');
    expect(reply.status).toBe(200);
    expect(reply.body.replies?.map((r) => r.text)).toEqual([FOLLOW_UP.thanks]);

    // The wake job still runs when due, finds no run waiting on its key, and sends nothing.
    const wake = await eventually(async () => {
      const w = await world.prisma.wake.findFirst({ where: { sessionId }, select: { status: true } });
      return w && w.status !== 'scheduled' && w;
    }, 90_000);
    expect(wake.status).toBe('cancelled');
    expect(await outboundTexts(world.prisma, sessionId)).toEqual([FOLLOW_UP.ask, FOLLOW_UP.thanks]);
    const codes = (await outcomeCodes(world.prisma, sessionId)).flat();
    expect(codes).toContain('replied');
    expect(codes).not.toContain('no-reply');
  });
});

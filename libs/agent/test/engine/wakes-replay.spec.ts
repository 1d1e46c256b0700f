// engine.md §6 wakes: turn({ wake }) for every kind, stale and broken wakes (changed: false),
// pendingWakes(session) rebuilding the whole schedule with no model call, and replays that
// build the same keys, messages and schedule.
import { pendingWakes, type Flow, type Session } from '@falai/agent';
import { agent, model, says, T0 } from './support';

const flows: Flow[] = [
  {
    id: 'pedido',
    name: 'Pedido',
    on: [{ message: ['pedido'] }],
    steps: [
      { id: 'recebido', say: 'Recebi seu pedido.' },
      { id: 'pausa', wait: '2s' },
      { id: 'pix', say: 'Envie o Pix.' },
      { id: 'aguarda', wait: { event: 'pago', upTo: '1d' }, else: 'expirou' },
      { id: 'emitir', do: 'emitirNota' },
      { id: 'pergunta', prompt: 'Pergunte se pode ajudar em algo mais.' },
      { id: 'lembrete', wait: '1h' },
      { id: 'tchau', say: 'Até logo!', then: 'end' },
      { id: 'expirou', say: 'Pix expirado.', then: 'end' },
    ],
  },
  { id: 'silencio', name: 'Silêncio', on: [{ silence: '3h' }], steps: [{ id: 'oi', say: 'Oi?' }] },
  { id: 'nps', name: 'NPS', on: [{ event: 'pago', after: '1d' }], steps: [{ id: 'q', say: 'Nota de 0 a 10?' }] },
];

function build() {
  let deferred = false;
  const provider = model(says('Posso ajudar em algo mais?'), () => ({ structured: { flows: { pedido: 95 } } }));
  const a = agent({
    provider,
    flows,
    actions: [{ name: 'emitirNota', handler: () => (deferred ? { ok: true } : ((deferred = true), { defer: '10m' })) }],
  });
  return { a, provider };
}

describe('wakes', () => {
  it('pendingWakes rebuilds every wake a session waits on: run waits and session wakes', async () => {
    const { a, provider } = build();
    const r1 = await a.turn({ sessionId: 's', message: 'meu pedido', id: 'm1' });
    expect(r1.messages.map((m) => [m.text, m.afterMs])).toEqual([['Recebi seu pedido.', undefined], ['Envie o Pix.', 2000]]);
    const eventWait = `pedido#m1:aguarda:${Date.parse(T0) + 86_400_000}`;
    const silence = `silence:silencio:s:${Date.parse(T0)}`;
    expect(r1.schedule.map((w) => w.key)).toEqual([eventWait, silence]);
    const calls = provider.requests.length;
    expect(pendingWakes(r1.session)).toEqual(r1.schedule);
    expect(provider.requests.length).toBe(calls);

    a.clock.advance('1h');
    const r2 = await a.turn({ sessionId: 's', event: 'pago', key: 'p1' });
    const defer = `pedido#m1:emitir:1:defer:${Date.parse(T0) + 3_600_000 + 600_000}`;
    const nps = `event:nps:p1:${Date.parse(T0) + 3_600_000 + 86_400_000}`;
    expect(r2.schedule.map((w) => w.key)).toEqual([defer, nps]);
    expect(pendingWakes(r2.session).map((w) => w.key).sort()).toEqual([defer, nps, silence].sort());
  });

  it('every kind of wake runs through turn({ wake })', async () => {
    const { a } = build();
    await a.turn({ sessionId: 's', message: 'pedido', id: 'm1' });
    a.clock.advance('1h');
    const paid = await a.turn({ sessionId: 's', event: 'pago', key: 'p1' });
    a.clock.advance('10m');
    const retried = await a.turn({ sessionId: 's', wake: paid.schedule[0].key });
    expect(retried.outcomes.map((o) => o.code)).toEqual(['action-ok', 'spoke', 'waiting']);
    expect(retried.messages.map((m) => m.key)).toEqual(['pedido#m1:pergunta:1']);
    // The prompt spoke once and the run moved on to its 1h timer.
    const timer = `pedido#m1:lembrete:${a.clock.now().getTime() + 3_600_000}`;
    expect(retried.schedule.map((w) => w.key)).toContain(timer);
    a.clock.advance('1h');
    const followed = await a.turn({ sessionId: 's', wake: timer });
    expect(followed.outcomes[0]).toMatchObject({ code: 'no-reply' });
    expect(followed.messages.map((m) => m.text)).toEqual(['Até logo!']);
  });

  it('stale and broken wakes change nothing and say why', async () => {
    const { a } = build();
    const r1 = await a.turn({ sessionId: 's', message: 'pedido', id: 'm1' });
    for (const [key, code] of [
      ['pedido#m1:aguarda:1', 'stale-wake'],
      ['silence:silencio:s:1', 'stale-wake'],
      ['event:nps:p9:1', 'stale-wake'],
      ['outro#m1:x:1', 'broken-wake'],
      ['silence:nada:s:1', 'broken-wake'],
      ['lixo', 'broken-wake'],
    ]) {
      const r = await a.turn({ sessionId: 's', wake: key, session: r1.session });
      expect([key, r.changed, r.outcomes.map((o) => [o.status, o.code]), r.session]).toEqual([key, false, [['skipped', code]], r1.session]);
    }
  });
});

describe('a wake after the agent changed', () => {
  it('a run whose wait step is gone ends with missing-step', async () => {
    const v1 = agent({ provider: model(says('x')), flows: [{ id: 'f', name: 'F', steps: [{ id: 'w', wait: '1h' }, { id: 'b', say: 'oi' }] }] });
    const r1 = await v1.turn({ sessionId: 's', start: { flow: 'f', key: 'k' } });
    const v2 = agent({ provider: model(says('x')), flows: [{ id: 'f', name: 'F', steps: [{ id: 'b', say: 'oi' }] }] });
    const r2 = await v2.turn({ sessionId: 's', wake: r1.schedule[0].key, session: r1.session });
    expect(r2.outcomes.map((o) => o.code)).toEqual(['missing-step']);
    expect(r2.ended.map((e) => [e.reason, e.code])).toEqual([['failed', 'missing-step']]);
  });
});

describe('replay', () => {
  it('the same input on the same session builds the same keys, messages and schedule', async () => {
    // Two hosts (fresh agents, deterministic actions) replay the same inputs on the same session.
    const run = async (session?: Session) => {
      const { a } = build();
      const r1 = await a.turn({ sessionId: 's', message: 'pedido', id: 'm1', session });
      a.clock.advance('1h');
      const r2 = await a.turn({ sessionId: 's', event: 'pago', key: 'p1', session: r1.session });
      a.clock.advance('10m');
      const r3 = await a.turn({ sessionId: 's', wake: r2.schedule[0].key, session: r2.session });
      return [r1, r2, r3];
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first.flatMap((r) => r.messages.map((m) => m.key))).toEqual(['pedido#m1:recebido:1', 'pedido#m1:pix:1', 'pedido#m1:pergunta:1']);
  });
});

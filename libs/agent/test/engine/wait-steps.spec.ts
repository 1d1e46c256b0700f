// engine.md §6 wait steps: timers (wake `${runId}:${stepId}:${atMs}`, no-reply / replied),
// short waits as a message's afterMs (inline-delay), business hours, and event waits.
import type { Flow } from '@falai/agent';
import { agent, model, says, T0 } from './support';

const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms);

function followUp(steps: Flow['steps']) {
  return agent({
    provider: model(says('Resposta.')),
    flows: [{ id: 'f', name: 'F', on: [{ message: ['oferta'] }], steps }],
    idle: 'silent',
  });
}

describe('timer waits', () => {
  const steps: Flow['steps'] = [
    { id: 'oferta', say: 'Temos quartos a R$ 420.' },
    { id: 'espera', wait: '2h', else: 'respondeu' },
    { id: 'lembrete', say: 'Ainda tem interesse?', then: 'end' },
    { id: 'respondeu', say: 'Que bom que respondeu!', then: 'end' },
  ];

  function build() {
    return agent({
      provider: model(says('x'), () => ({ structured: { flows: { f: 90 } } })),
      flows: [{ id: 'f', name: 'F', on: [{ message: ['oferta'] }], steps }],
      idle: 'silent',
    });
  }

  it('parks the run with a wake in schedule[]; the wake takes then (no-reply)', async () => {
    const a = build();
    const r1 = await a.turn({ sessionId: 's', message: 'oferta', id: 'm1' });
    const due = at(T0, 2 * 3_600_000);
    const key = `f#m1:espera:${due.getTime()}`;
    expect(r1.schedule).toEqual([{ key, at: due.toISOString() }]);
    expect(r1.session.runs[0]).toMatchObject({ status: 'waiting', waiting: { key, at: due.toISOString(), reason: 'timer' } });
    expect(r1.outcomes.find((o) => o.stepId === 'espera')).toMatchObject({ kind: 'wait', code: 'waiting', until: due.toISOString() });

    a.clock.set(due);
    const r2 = await a.turn({ sessionId: 's', wake: key });
    expect(r2.changed).toBe(true);
    expect(r2.outcomes[0]).toMatchObject({ stepId: 'espera', code: 'no-reply' });
    expect(r2.messages).toEqual([{ text: 'Ainda tem interesse?', kind: 'verbatim', key: 'f#m1:lembrete:1' }]);
    expect(r2.session.runs).toEqual([]);
  });

  it('a customer message while parked takes else (replied); the old wake is then stale', async () => {
    const a = build();
    const r1 = await a.turn({ sessionId: 's', message: 'oferta', id: 'm1' });
    a.clock.advance('5m');
    const r2 = await a.turn({ sessionId: 's', message: 'tenho sim', id: 'm2' });
    expect(r2.outcomes[0]).toMatchObject({ stepId: 'espera', code: 'replied' });
    expect(r2.messages.map((m) => m.text)).toEqual(['Que bom que respondeu!']);
    const r3 = await a.turn({ sessionId: 's', wake: r1.schedule[0].key });
    expect(r3).toMatchObject({ changed: false, messages: [] });
    expect(r3.outcomes).toEqual([expect.objectContaining({ code: 'stale-wake', status: 'skipped' })]);
  });

  it('without else, a reply ends the run and the message is answered as usual', async () => {
    const a = agent({
      provider: model(says('Oi! Em que posso ajudar?'), () => ({ structured: { flows: { f: 90 } } })),
      flows: [{ id: 'f', name: 'F', on: [{ message: ['oferta'] }], steps: [{ id: 'o', say: 'Oferta.' }, { id: 'w', wait: '1h' }, { id: 'l', say: 'Lembrete.' }] }],
    });
    await a.turn({ sessionId: 's', message: 'oferta', id: 'm1' });
    const r2 = await a.turn({ sessionId: 's', message: 'outra coisa', id: 'm2' });
    expect(r2.outcomes[0]).toMatchObject({ code: 'replied' });
    expect(r2.ended.map((e) => e.reason)).toEqual(['completed']);
    expect(r2.messages).toEqual([{ text: 'Oi! Em que posso ajudar?', kind: 'ai', key: 'idle:m2' }]);
  });

  it('a wait of 10 s or less before a say or talk step is that message\'s afterMs (inline-delay)', async () => {
    const a = followUp([{ id: 'a', say: 'Um momento…' }, { id: 'w', wait: '3s' }, { id: 'b', say: 'Pronto!' }, { id: 'w2', wait: '10s' }, { id: 'c', prompt: 'Pergunte algo.' }]);
    const s = await a.turn({ sessionId: 's', start: { flow: 'f', key: 'k1' } });
    expect(s.messages).toEqual([
      { text: 'Um momento…', kind: 'verbatim', key: 'f#k1:a:1' },
      { text: 'Pronto!', kind: 'verbatim', key: 'f#k1:b:1', afterMs: 3000 },
      { text: 'Resposta.', kind: 'ai', key: 'f#k1:c:1', afterMs: 10_000 },
    ]);
    expect(s.schedule).toEqual([]);
    expect(s.outcomes.filter((o) => o.code === 'inline-delay').map((o) => o.detail)).toEqual([{ afterMs: 3000 }, { afterMs: 10_000 }]);
  });

  it('a short wait with an else waits for a reply: a real wake; a reply in time takes else', async () => {
    const steps: Flow['steps'] = [
      { id: 'pergunta', say: 'Quer o boleto?' },
      { id: 'w', wait: '2s', else: 'obrigado' },
      { id: 'lembrete', say: 'Posso ajudar em algo?', then: 'end' },
      { id: 'obrigado', say: 'Obrigado por responder!', then: 'end' },
    ];
    const a = followUp(steps);
    const r1 = await a.turn({ sessionId: 's', start: { flow: 'f', key: 'k' } });
    const key = `f#k:w:${Date.parse(T0) + 2000}`;
    expect(r1.schedule).toEqual([{ key, at: new Date(Date.parse(T0) + 2000).toISOString() }]);
    expect(r1.outcomes.some((o) => o.code === 'inline-delay')).toBe(false);
    a.clock.advance('2s');
    expect((await a.turn({ sessionId: 's', wake: key })).messages.map((m) => m.text)).toEqual(['Posso ajudar em algo?']);

    const b = followUp(steps);
    await b.turn({ sessionId: 's', start: { flow: 'f', key: 'k' } });
    b.clock.advance('1s');
    const replied = await b.turn({ sessionId: 's', message: 'sim', id: 'm1' });
    expect(replied.messages.map((m) => m.text)).toEqual(['Obrigado por responder!']);
    b.clock.advance('1s');
    expect((await b.turn({ sessionId: 's', wake: key })).outcomes[0].code).toBe('stale-wake');
  });

  it('a short wait before the end, or over 10 s, is a real wake', async () => {
    const a = followUp([{ id: 'a', say: 'Oi' }, { id: 'w', wait: '11s' }, { id: 'b', say: 'Oi de novo' }, { id: 'w2', wait: '5s' }]);
    const r = await a.turn({ sessionId: 's', start: { flow: 'f', key: 'k' } });
    expect(r.schedule.map((w) => w.key)).toEqual([`f#k:w:${Date.parse(T0) + 11_000}`]);
    a.clock.advance('11s');
    const r2 = await a.turn({ sessionId: 's', wake: r.schedule[0].key });
    expect(r2.messages.map((m) => m.text)).toEqual(['Oi de novo']);
    expect(r2.schedule.map((w) => w.key)).toEqual([`f#k:w2:${Date.parse(T0) + 16_000}`]);
  });

  it('business hours move the due time to the next opening, in the given time zone', async () => {
    const hours = { start: '09:00', end: '18:00', timeZone: 'America/Sao_Paulo' };
    const a = followUp([{ id: 'w', wait: '24h', businessHours: hours }, { id: 'b', say: 'Bom dia!' }]);
    // Wednesday 2026-12-02 22:30 in São Paulo (UTC-3) + 24h = Thursday 22:30 → Friday 09:00 local.
    a.clock.set('2026-12-03T01:30:00.000Z');
    const r = await a.turn({ sessionId: 's', start: { flow: 'f', key: 'k' } });
    expect(r.schedule[0].at).toBe('2026-12-04T12:00:00.000Z');
    // Friday 2026-12-04 20:00 local + 3h → Friday 23:00 → Monday 09:00 (weekends closed by default).
    const b = followUp([{ id: 'w', wait: '3h', businessHours: hours }, { id: 'b', say: 'Bom dia!' }]);
    b.clock.set('2026-12-04T23:00:00.000Z');
    expect((await b.turn({ sessionId: 's', start: { flow: 'f', key: 'k' } })).schedule[0].at).toBe('2026-12-07T12:00:00.000Z');
    // Within hours: unchanged.
    const c = followUp([{ id: 'w', wait: '1h', businessHours: hours }, { id: 'b', say: 'x' }]);
    c.clock.set('2026-12-02T13:00:00.000Z');
    expect((await c.turn({ sessionId: 's', start: { flow: 'f', key: 'k' } })).schedule[0].at).toBe('2026-12-02T14:00:00.000Z');
  });
});

describe('event waits', () => {
  const steps: Flow['steps'] = [
    { id: 'pix', say: 'Envie o Pix, eu aguardo.' },
    { id: 'aguarda', wait: { event: 'pagamento', upTo: '1h' }, else: 'expirou' },
    { id: 'pago', say: 'Pagamento recebido!', then: 'end' },
    { id: 'expirou', say: 'O prazo do Pix expirou.', then: 'end' },
  ];

  it('turn({ event, key }) takes then (event-arrived)', async () => {
    const a = followUp(steps);
    const r1 = await a.turn({ sessionId: 's', start: { flow: 'f', key: 'k' } });
    expect(r1.session.runs[0].waiting).toMatchObject({ reason: 'event', event: 'pagamento' });
    const r2 = await a.turn({ sessionId: 's', event: 'pagamento', key: 'pay-1', data: {} });
    expect(r2.outcomes[0]).toMatchObject({ stepId: 'aguarda', code: 'event-arrived' });
    expect(r2.messages).toEqual([{ text: 'Pagamento recebido!', kind: 'verbatim', key: 'f#k:pago:1' }]);
    // The same event again is a duplicate.
    const r3 = await a.turn({ sessionId: 's', event: 'pagamento', key: 'pay-1' });
    expect(r3).toMatchObject({ changed: false, outcomes: [expect.objectContaining({ code: 'duplicate-input' })] });
  });

  it('its upTo wake takes else (no-event); a customer message does not end the wait', async () => {
    const a = followUp(steps);
    const r1 = await a.turn({ sessionId: 's', start: { flow: 'f', key: 'k' } });
    const key = `f#k:aguarda:${Date.parse(T0) + 3_600_000}`;
    expect(r1.schedule).toEqual([{ key, at: new Date(Date.parse(T0) + 3_600_000).toISOString() }]);
    const chat = await a.turn({ sessionId: 's', message: 'já paguei?', id: 'm1' });
    expect(chat.session.runs[0]).toMatchObject({ status: 'waiting', waiting: { key } });
    a.clock.advance('1h');
    const r2 = await a.turn({ sessionId: 's', wake: key });
    expect(r2.outcomes[0]).toMatchObject({ code: 'no-event' });
    expect(r2.messages.map((m) => m.text)).toEqual(['O prazo do Pix expirou.']);
  });

  it('upTo defaults to 30 days', async () => {
    const a = followUp([{ id: 'w', wait: { event: 'pagamento' } }, { id: 'b', say: 'ok' }]);
    const r = await a.turn({ sessionId: 's', start: { flow: 'f', key: 'k' } });
    expect(r.schedule[0].at).toBe(new Date(Date.parse(T0) + 30 * 86_400_000).toISOString());
  });
});

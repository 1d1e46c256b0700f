// engine.md §6 triggers: mention (side runs), event (with after), silence follow-ups, repeat
// (once, always, cooldown), then: { flow } chaining with its hop limit, onEnd, manual starts.
import { type Flow, pendingWakes, TurnInputError } from '@falai/agent';
import { agent, model, says, T0 } from './support';

const ms = (iso: string) => Date.parse(iso);

describe('mention triggers', () => {
  it('start a side run beside the run that takes the message, reading their extract fields', async () => {
    const provider = model(says('Qual cidade?'), (req) =>
      req.system.includes('email')
        ? { structured: { flows: { reserva: 90, contato: 70 }, fields: { email: 'ana@x.com', cidade: null } } }
        : { structured: { flows: {}, fields: {} } },
    );
    const a = agent({
      provider,
      fields: { cidade: { type: 'string' }, email: { type: 'string', extract: 'asked' } },
      actions: [{ name: 'salvarEmail', handler: (_p, ctx) => ({ ok: true, data: { salvo: ctx.data.email } }) }],
      flows: [
        { id: 'reserva', name: 'Reserva', on: [{ message: ['quero reservar'] }], steps: [{ id: 'onde', collect: ['cidade'] }] },
        { id: 'contato', name: 'Contato', on: [{ mention: ['meu e-mail'], extract: ['email'] }], steps: [{ id: 'salva', do: 'salvarEmail' }] },
      ],
    });
    const r = await a.turn({ sessionId: 's', message: 'quero reservar, meu email é ana@x.com', id: 'm1' });
    expect(provider.calls('understand')[0].system).toContain('- email (string)');
    expect(r.started.map((run) => [run.id, run.side ?? false])).toEqual([['reserva#m1', false], ['contato#m1', true]]);
    expect(r.session.data).toMatchObject({ email: 'ana@x.com', salvo: 'ana@x.com' });
    expect(r.messages.map((m) => m.key)).toEqual(['reserva#m1:onde:1']);
    expect(r.outcomes.find((o) => o.code === 'started')).toMatchObject({ flowId: 'contato', kind: 'trigger', detail: { trigger: 'mention', score: 70 } });
    expect(r.session.runs.map((run) => [run.flowId, run.status])).toEqual([['reserva', 'asking']]);
  });
});

describe('event triggers', () => {
  const flows: Flow[] = [
    { id: 'boas', name: 'Boas-vindas', on: [{ event: 'cadastro' }], steps: [{ id: 'oi', say: 'Bem-vindo!' }] },
    { id: 'nps', name: 'NPS', on: [{ event: 'entrega', after: '2h' }], steps: [{ id: 'q', say: 'De 0 a 10, como foi?' }] },
  ];

  it('start on turn({ event, key }); repeat defaults to always', async () => {
    const a = agent({ provider: model(says('x')), flows });
    const r1 = await a.turn({ sessionId: 's', event: 'cadastro', key: 'e1' });
    expect(r1.messages).toEqual([{ text: 'Bem-vindo!', kind: 'verbatim', key: 'boas#e1:oi:1' }]);
    const r2 = await a.turn({ sessionId: 's', event: 'cadastro', key: 'e2' });
    expect(r2.messages.map((m) => m.key)).toEqual(['boas#e2:oi:1']);
  });

  it('after delays the start with a wake; the wake starts the flow', async () => {
    const a = agent({ provider: model(says('x')), flows });
    const r1 = await a.turn({ sessionId: 's', event: 'entrega', key: 'd1' });
    const due = ms(T0) + 2 * 3_600_000;
    expect(r1.schedule).toEqual([{ key: `event:nps:d1:${due}`, at: new Date(due).toISOString() }]);
    expect(r1.outcomes[0]).toMatchObject({ flowId: 'nps', code: 'start-scheduled' });
    expect(r1.messages).toEqual([]);
    a.clock.advance('2h');
    const r2 = await a.turn({ sessionId: 's', wake: `event:nps:d1:${due}` });
    expect(r2.messages).toEqual([{ text: 'De 0 a 10, como foi?', kind: 'verbatim', key: 'nps#d1:q:1' }]);
    expect(r2.session.wakes).toBeUndefined();
    // Fired once: the same wake again is stale.
    expect((await a.turn({ sessionId: 's', wake: `event:nps:d1:${due}` })).outcomes[0].code).toBe('stale-wake');
  });
});

describe('delayed starts that can no longer start', () => {
  it('read stale-wake, and the next changed turn drops them from the session', async () => {
    const a = agent({
      provider: model(says('Qual nota?')),
      fields: { nota: { type: 'integer' } },
      flows: [{ id: 'nps', name: 'NPS', on: [{ event: 'entrega', after: '1h' }], steps: [{ id: 'q', collect: ['nota'] }] }],
      idle: 'silent',
    });
    const r1 = await a.turn({ sessionId: 's', event: 'entrega', key: 'd1' });
    await a.turn({ sessionId: 's', start: { flow: 'nps', key: 'manual' } });
    a.clock.advance('1h');
    const stale = await a.turn({ sessionId: 's', wake: r1.schedule[0].key });
    expect(stale).toMatchObject({ changed: false, outcomes: [expect.objectContaining({ code: 'stale-wake' })] });
    expect(pendingWakes(stale.session).map((w) => w.key)).toEqual([r1.schedule[0].key]);
    const next = await a.turn({ sessionId: 's', message: '9', id: 'm1' });
    expect(next.session.wakes).toBeUndefined();
  });
});

describe('silence triggers', () => {
  const build = () =>
    agent({
      provider: model(says('Em qual cidade?')),
      fields: { cidade: { type: 'string' } },
      flows: [
        { id: 'reserva', name: 'Reserva', on: [{ message: [] }], steps: [{ id: 'onde', collect: ['cidade'] }] },
        { id: 'cutucar', name: 'Cutucar', on: [{ silence: '2h' }], steps: [{ id: 'oi', say: 'Ainda está aí?' }] },
      ],
    });

  it('arm a wake when the assistant spoke last; honoured if nobody wrote since (repeat once)', async () => {
    const a = build();
    const r1 = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    const key = `silence:cutucar:s:${ms(T0)}`;
    expect(r1.schedule).toEqual([{ key, at: new Date(ms(T0) + 7_200_000).toISOString() }]);
    a.clock.advance('2h');
    const r2 = await a.turn({ sessionId: 's', wake: key });
    expect(r2.messages).toEqual([{ text: 'Ainda está aí?', kind: 'verbatim', key: `cutucar#${key}:oi:1` }]);
    // once: no new silence wake after the follow-up itself.
    expect(r2.schedule).toEqual([]);
    expect(r2.session.wakes).toBeUndefined();
    // The asking run was not disturbed by a run that only said something.
    expect(r2.session.runs.map((r) => [r.flowId, r.status])).toEqual([['reserva', 'asking']]);
  });

  it('a wake armed before the customer wrote again is stale', async () => {
    const a = build();
    const r1 = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    a.clock.advance('1h');
    const r2 = await a.turn({ sessionId: 's', message: 'Curitiba', id: 'm2' });
    a.clock.advance('1h');
    const r3 = await a.turn({ sessionId: 's', wake: r1.schedule[0].key });
    expect(r3).toMatchObject({ changed: false, messages: [] });
    expect(r3.outcomes[0]).toMatchObject({ code: 'stale-wake' });
    expect(r2.session.wakes ?? []).not.toContainEqual(expect.objectContaining({ key: r1.schedule[0].key }));
  });
});

describe('repeat', () => {
  const flows = (repeat: unknown): Flow[] => [{ id: 'f', name: 'F', on: [{ message: ['promo'], repeat } as never], steps: [{ id: 'a', say: 'Promo!' }] }];
  const build = (repeat: unknown) => agent({ provider: model(says('idle'), () => ({ structured: { flows: { f: 90 } } })), flows: flows(repeat) });

  it('once (default for message triggers): the second message goes to idle', async () => {
    const a = build(undefined);
    expect((await a.turn({ sessionId: 's', message: 'promo', id: 'm1' })).messages[0].text).toBe('Promo!');
    expect((await a.turn({ sessionId: 's', message: 'promo', id: 'm2' })).messages[0].text).toBe('idle');
  });

  it('{ cooldown }: fires again once the cooldown has passed since its last start', async () => {
    const a = build({ cooldown: '1h' });
    expect((await a.turn({ sessionId: 's', message: 'promo', id: 'm1' })).messages[0].text).toBe('Promo!');
    a.clock.advance('30m');
    expect((await a.turn({ sessionId: 's', message: 'promo', id: 'm2' })).messages[0].text).toBe('idle');
    a.clock.advance('30m');
    const r3 = await a.turn({ sessionId: 's', message: 'promo', id: 'm3' });
    expect(r3.messages[0].text).toBe('Promo!');
    expect(r3.session.claims['f:0']).toBe(a.clock.now().toISOString());
  });
});

describe('chaining, onEnd and manual starts', () => {
  it('then: { flow } chains into another flow at the next hop', async () => {
    const a = agent({
      provider: model(says('x')),
      flows: [
        { id: 'a', name: 'A', steps: [{ id: 's1', say: 'A', then: { flow: 'b' } }] },
        { id: 'b', name: 'B', steps: [{ id: 's1', say: 'B' }] },
      ],
    });
    const r = await a.turn({ sessionId: 's', start: { flow: 'a', key: 'k' } });
    expect(r.messages.map((m) => [m.text, m.key])).toEqual([['A', 'a#k:s1:1'], ['B', 'b#k/1:s1:1']]);
    expect(r.started.map((run) => [run.id, run.hop ?? 0])).toEqual([['a#k', 0], ['b#k/1', 1]]);
    expect(r.ended.map((e) => [e.id, e.reason])).toEqual([['a#k', 'completed'], ['b#k/1', 'completed']]);
  });

  it('a start at hop 5 is refused (hop-limit)', async () => {
    const ids = ['f0', 'f1', 'f2', 'f3', 'f4', 'f5'];
    const a = agent({
      provider: model(says('x')),
      flows: ids.map((id, i) => ({ id, name: id, steps: [{ id: 's', say: id, ...(i < 5 ? { then: { flow: ids[i + 1] } } : {}) }] })),
    });
    const r = await a.turn({ sessionId: 's', start: { flow: 'f0', key: 'k' } });
    expect(r.messages.map((m) => m.text)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4']);
    expect(r.outcomes.find((o) => o.code === 'hop-limit')).toMatchObject({ status: 'failed', flowId: 'f4', detail: { flow: 'f5', hop: 5 } });
  });

  it('onEnd "stay" keeps the run on its last step, which runs again on each message', async () => {
    let n = 0;
    const a = agent({
      provider: model(() => ({ text: `resposta ${++n}` })),
      flows: [{ id: 'f', name: 'F', on: [{ message: [] }], onEnd: 'stay', steps: [{ id: 'p', prompt: 'Responda.' }] }],
    });
    const r1 = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    expect(r1.ended).toEqual([]);
    expect(r1.session.runs[0]).toMatchObject({ stepId: 'p', status: 'asking', stayed: true });
    const r2 = await a.turn({ sessionId: 's', message: 'e agora?', id: 'm2' });
    expect(r2.messages).toEqual([{ text: 'resposta 2', kind: 'ai', key: 'f#m1:p:2' }]);
  });

  it('onEnd "reset" ends the run, clears its fields and claims, so it can start again', async () => {
    const a = agent({
      provider: model(says('Qual cidade?'), () => ({ structured: { flows: { f: 90 }, fields: { cidade: 'Recife' } } })),
      fields: { cidade: { type: 'string' } },
      flows: [{ id: 'f', name: 'F', on: [{ message: ['reservar'] }], onEnd: 'reset', steps: [{ id: 'onde', collect: ['cidade'] }, { id: 'ok', say: 'Anotado.' }] }],
    });
    const r1 = await a.turn({ sessionId: 's', message: 'reservar em Recife', id: 'm1' });
    expect(r1.outcomes.find((o) => o.code === 'reset')).toMatchObject({ detail: { fields: ['cidade'] } });
    expect(r1.session.data).toEqual({});
    expect(r1.session.claims).toEqual({});
    const r2 = await a.turn({ sessionId: 's', message: 'reservar em Recife', id: 'm2' });
    expect(r2.started.map((run) => run.id)).toEqual(['f#m2']);
  });

  it('turn({ start }) starts a flow by hand; a live run or a replayed key changes nothing', async () => {
    const a = agent({
      provider: model(says('Em qual cidade?')),
      fields: { cidade: { type: 'string' } },
      flows: [{ id: 'f', name: 'F', steps: [{ id: 'onde', collect: ['cidade'] }] }],
    });
    const r1 = await a.turn({ sessionId: 's', start: { flow: 'f', key: 'k1' } });
    expect(r1.messages).toEqual([{ text: 'Em qual cidade?', kind: 'ai', key: 'f#k1:onde:1' }]);
    expect(r1.session.inputs).toEqual(['start:f:k1']);
    const again = await a.turn({ sessionId: 's', start: { flow: 'f', key: 'k1' } });
    expect(again).toMatchObject({ changed: false, outcomes: [expect.objectContaining({ code: 'duplicate-input' })] });
    const other = await a.turn({ sessionId: 's', start: { flow: 'f', key: 'k2' } });
    expect(other).toMatchObject({ changed: false, outcomes: [expect.objectContaining({ code: 'already-running' })] });
    await expect(a.turn({ sessionId: 's', start: { flow: 'nada', key: 'k' } })).rejects.toThrow(TurnInputError);
    await expect(a.turn({ sessionId: 's', event: 'x' })).rejects.toThrow('needs a key');
  });
});

// engine.md §6 `do` steps: registered actions, their four results, the idempotency key, and
// that they run even once the message has its answer.
import { type ActionCtx, type ActionResult, FlowConfigurationError, type Flow } from '@falai/agent';
import { agent, model, says } from './support';

type Handler = (params: Record<string, unknown>, ctx: ActionCtx) => ActionResult | Promise<ActionResult>;

function setup(handler: Handler, steps: Flow['steps'], extra: { idle?: 'silent' } = {}) {
  const calls: { params: Record<string, unknown>; key: string }[] = [];
  const a = agent({
    provider: model(says('Certo.')),
    fields: { pedido: { type: 'string' }, status: { type: 'string' } },
    actions: [
      {
        name: 'consultar',
        params: { type: 'object', properties: { pedido: { type: 'string' } }, required: ['pedido'] },
        handler: (params, ctx) => {
          calls.push({ params, key: ctx.key });
          return handler(params, ctx);
        },
      },
    ],
    flows: [{ id: 'f', name: 'F', on: [{ message: [] }], steps }],
    ...extra,
  });
  return { a, calls };
}

const doStep = { id: 'consulta', do: 'consultar', with: { pedido: 'P1' } };

describe('do steps', () => {
  it('ok: runs the action with its params and key, writes its data, goes on to then', async () => {
    const { a, calls } = setup(() => ({ ok: true, data: { status: 'enviado' } }), [doStep, { id: 'fim', say: 'Seu pedido foi enviado.' }]);
    const r = await a.turn({ sessionId: 's', message: 'cadê meu pedido?', id: 'm1' });
    expect(calls).toEqual([{ params: { pedido: 'P1' }, key: 'f#m1:consulta:1' }]);
    expect(r.session.data.status).toBe('enviado');
    expect(r.messages.map((m) => m.text)).toEqual(['Seu pedido foi enviado.']);
    expect(r.outcomes.find((o) => o.stepId === 'consulta')).toMatchObject({ kind: 'do', status: 'ok', code: 'action-ok', detail: { key: 'f#m1:consulta:1' } });
  });

  it('ok with spoke: a text is sent verbatim under the step key and answers the message', async () => {
    const { a } = setup(() => ({ ok: true, spoke: 'Pedido P1: enviado.' }), [doStep]);
    const r = await a.turn({ sessionId: 's', message: 'status', id: 'm1' });
    expect(r.messages).toEqual([{ text: 'Pedido P1: enviado.', kind: 'verbatim', key: 'f#m1:consulta:1' }]);
    // Only the understand call: the message needs no speaker.
    expect(r.trace.filter((t) => t.type === 'model').map((t) => t.type === 'model' && t.call)).toEqual(['understand']);
  });

  it('ok with spoke: true counts as the answer (no idle reply) and moves lastAssistantAt', async () => {
    const { a } = setup(() => ({ ok: true, spoke: true }), [doStep]);
    const r = await a.turn({ sessionId: 's', message: 'status', id: 'm1' });
    expect(r.messages).toEqual([]);
    expect(r.session.lastAssistantAt).toBe(r.session.lastUserAt);
    expect(r.outcomes.some((o) => o.kind === 'idle')).toBe(false);
  });

  it('skipped: action-skipped, then the next step', async () => {
    const { a } = setup(() => ({ skipped: 'nada a fazer' }), [doStep, { id: 'fim', say: 'ok' }]);
    const r = await a.turn({ sessionId: 's', message: 'x', id: 'm1' });
    expect(r.outcomes[0]).toMatchObject({ stepId: 'consulta', status: 'skipped', code: 'action-skipped', message: 'nada a fazer' });
    expect(r.messages.map((m) => m.text)).toEqual(['ok']);
  });

  it.each<[string, Handler]>([
    ['returns failed', () => ({ failed: 'sistema fora do ar' })],
    ['throws', () => {
      throw new Error('sistema fora do ar');
    }],
  ])('failed when the action %s: action-failed, then onFail', async (_how, handler) => {
    const { a } = setup(handler, [{ ...doStep, onFail: 'erro' }, { id: 'ok', say: 'Tudo certo.', then: 'end' }, { id: 'erro', say: 'Não consegui consultar.' }]);
    const r = await a.turn({ sessionId: 's', message: 'x', id: 'm1' });
    expect(r.outcomes[0]).toMatchObject({ stepId: 'consulta', status: 'failed', code: 'action-failed', message: 'sistema fora do ar' });
    expect(r.messages.map((m) => m.text)).toEqual(['Não consegui consultar.']);
  });

  it('failed without onFail goes to then; a result of the wrong shape is a failure', async () => {
    const { a } = setup(() => ({ nope: 1 }) as unknown as ActionResult, [doStep, { id: 'fim', say: 'seguindo' }]);
    const r = await a.turn({ sessionId: 's', message: 'x', id: 'm1' });
    expect(r.outcomes[0]).toMatchObject({ code: 'action-failed', message: expect.stringContaining('is not { ok }, { skipped }, { failed } or { defer }') });
    expect(r.messages.map((m) => m.text)).toEqual(['seguindo']);
  });

  it('defer: the run parks with a wake; the wake re-runs the same visit with the same key', async () => {
    let attempt = 0;
    const { a, calls } = setup(() => (++attempt === 1 ? { defer: '24h', detail: { why: 'fila' } } : { ok: true, spoke: 'Feito.' }), [doStep]);
    const r1 = await a.turn({ sessionId: 's', message: 'x', id: 'm1' });
    const at = new Date(Date.parse('2026-12-02T12:00:00.000Z') + 24 * 3_600_000);
    const key = `f#m1:consulta:1:defer:${at.getTime()}`;
    expect(r1.schedule).toEqual([{ key, at: at.toISOString() }]);
    expect(r1.outcomes[0]).toMatchObject({ status: 'deferred', code: 'action-deferred', until: at.toISOString(), detail: { key: 'f#m1:consulta:1', detail: { why: 'fila' } } });
    expect(r1.session.runs[0]).toMatchObject({ status: 'waiting', waiting: { key, reason: 'defer' } });

    a.clock.advance('24h');
    const r2 = await a.turn({ sessionId: 's', wake: key });
    expect(calls.map((c) => c.key)).toEqual(['f#m1:consulta:1', 'f#m1:consulta:1']);
    expect(r2.messages).toEqual([{ text: 'Feito.', kind: 'verbatim', key: 'f#m1:consulta:1' }]);
    expect(r2.ended.map((e) => e.reason)).toEqual(['completed']);
  });

  it('a do step runs even when the message already has its answer', async () => {
    const { a, calls } = setup(() => ({ ok: true }), [{ id: 'oi', prompt: 'Cumprimente.' }, doStep, { id: 'fim', prompt: 'Despeça-se.' }]);
    const r = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    expect(r.messages.map((m) => m.key)).toEqual(['f#m1:oi:1']);
    expect(calls).toHaveLength(1);
    expect(r.session.runs[0]).toMatchObject({ stepId: 'fim', status: 'asking' });
  });

  it('the agent refuses an unknown action, params missing or unknown, and a wrong type', () => {
    const build = (step: Record<string, unknown>) => () => setup(() => ({ ok: true }), [step as never]);
    expect(build({ id: 'x', do: 'cobrar' })).toThrow(FlowConfigurationError);
    expect(build({ id: 'x', do: 'cobrar' })).toThrow('[FlowConfigurationError] flow "f", step "x": do names "cobrar", which is not a registered action. Register it with f.action(), or use one of "consultar".');
    expect(build({ id: 'x', do: 'consultar' })).toThrow('action "consultar" needs the parameter "pedido"');
    expect(build({ id: 'x', do: 'consultar', with: { pedido: 'P', extra: 1 } })).toThrow('action "consultar" takes no parameter "extra"');
    expect(build({ id: 'x', do: 'consultar', with: { pedido: 3 } })).toThrow('parameter "pedido" of action "consultar" must be string, got 3');
  });
});

describe('a silenced turn', () => {
  it('runs do steps, skips say steps, sends nothing and leaves talk steps waiting', async () => {
    const { a, calls } = setup(() => ({ ok: true, spoke: 'não deve sair', data: { status: 'ok' } }), [
      { id: 'oi', say: 'Olá!' },
      doStep,
      { id: 'pergunta', prompt: 'Pergunte algo.' },
    ]);
    const r = await a.turn({ sessionId: 's', message: 'oi', id: 'm1', silent: true });
    expect(r.messages).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(r.session.data.status).toBe('ok');
    expect(r.outcomes.map((o) => [o.stepId ?? o.kind, o.code])).toEqual([['oi', 'silent'], ['consulta', 'action-ok']]);
    expect(r.trace.filter((t) => t.type === 'model' && t.call === 'speak')).toEqual([]);
    expect(r.session.runs[0]).toMatchObject({ stepId: 'pergunta', status: 'asking' });
  });
});

// engine.md §6 `if` steps, predicates and branches on talk steps (`when` judged inside the same
// understand call: no extra model call).
import type { ModelRequest } from '@falai/agent';
import { agent, model, says } from './support';

const fields = { cidade: { type: 'string' as const }, vip: { type: 'boolean' as const }, hospedes: { type: 'integer' as const } };

describe('if steps and predicates', () => {
  const flowWith = (predicate: unknown, elseTarget?: string) => ({
    id: 'f',
    name: 'F',
    on: [{ message: [] }],
    steps: [
      { id: 'teste', if: predicate, then: 'sim', ...(elseTarget ? { else: elseTarget } : {}) } as never,
      { id: 'sim', say: 'sim', then: 'end' },
      { id: 'nao', say: 'não' },
    ],
  });
  const run = async (predicate: unknown, data: Record<string, unknown>, elseTarget?: string) => {
    const a = agent({
      provider: model(says('idle')),
      fields,
      flows: [flowWith(predicate, elseTarget)],
      conditions: [{ name: 'temVaga', test: (ctx) => ctx.data.hospedes !== undefined && (ctx.data.hospedes as number) <= 4 }],
      idle: 'silent',
    });
    return a.turn({ sessionId: 's', message: 'oi', id: 'm1', data: data as never });
  };

  it.each<[string, unknown, Record<string, unknown>, string]>([
    ['equals holds', { equals: { cidade: 'Curitiba' } }, { cidade: 'Curitiba' }, 'sim'],
    ['equals fails', { equals: { cidade: 'Curitiba' } }, { cidade: 'Recife' }, 'não'],
    ['equals null reads "not known"', { equals: { cidade: null } }, {}, 'sim'],
    ['known holds', { known: ['cidade', 'vip'] }, { cidade: 'x', vip: false }, 'sim'],
    ['known fails on an empty string', { known: ['cidade'] }, { cidade: '' }, 'não'],
    ['a registered condition by name', 'temVaga', { hospedes: 2 }, 'sim'],
    ['condition inside an object', { condition: ['temVaga'] }, { hospedes: 9 }, 'não'],
    ['every key must hold', { equals: { vip: true }, condition: 'temVaga' }, { vip: true, hospedes: 9 }, 'não'],
  ])('%s', async (_name, predicate, data, said) => {
    const r = await run(predicate, data, 'nao');
    expect(r.messages.map((m) => m.text)).toEqual([said]);
    expect(r.outcomes[0]).toMatchObject({ stepId: 'teste', kind: 'if', status: 'ok', code: 'branch', detail: { holds: said === 'sim' } });
  });

  it('else defaults to the end', async () => {
    const r = await run({ known: ['cidade'] }, {});
    expect(r.messages).toEqual([]);
    expect(r.ended.map((e) => [e.flowId, e.reason])).toEqual([['f', 'completed']]);
  });

  it('a condition that throws does not hold', async () => {
    const a = agent({
      provider: model(says('x')),
      fields,
      flows: [flowWith('quebra', 'nao')],
      conditions: [{ name: 'quebra', test: () => { throw new Error('boom'); } }],
    });
    const r = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    expect(r.messages.map((m) => m.text)).toEqual(['não']);
  });
});

describe('branches on a talk step', () => {
  function setup(answers: (req: ModelRequest) => Record<string, boolean>) {
    const provider = model(says('Posso ajudar com a reserva?'), (req) => ({
      structured: { fields: { cidade: null }, ...(JSON.stringify(req.schema).includes('"branches"') ? { branches: answers(req) } : {}) },
    }));
    const a = agent({
      provider,
      fields: { cidade: { type: 'string' } },
      flows: [
        {
          id: 'f',
          name: 'F',
          on: [{ message: [] }],
          steps: [
            {
              id: 'pergunta',
              prompt: 'Pergunte se quer reservar.',
              branches: [
                { when: 'O cliente quer falar com um humano?', then: 'humano' },
                { if: { known: ['cidade'] }, when: 'O cliente disse sim?', then: 'reserva' },
              ],
            },
            { id: 'depois', say: 'Sem problemas.', then: 'end' },
            { id: 'humano', say: 'Vou chamar alguém.', then: 'end' },
            { id: 'reserva', say: 'Reservando.', then: 'end' },
          ],
        },
      ],
    });
    return { a, provider };
  }

  it('the first branch that holds wins (branch), judged in the one understand call', async () => {
    const { a, provider } = setup(() => ({ 'pergunta:0': true, 'pergunta:1': true }));
    const r1 = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    expect(r1.session.runs[0]).toMatchObject({ stepId: 'pergunta', status: 'asking' });
    const before = provider.requests.length;
    const r2 = await a.turn({ sessionId: 's', message: 'quero um atendente', id: 'm2' });
    expect(r2.messages.map((m) => m.text)).toEqual(['Vou chamar alguém.']);
    expect(r2.outcomes.find((o) => o.code === 'branch')).toMatchObject({ stepId: 'pergunta', status: 'ok', detail: { index: 0, then: 'humano' } });
    // Exactly one call: the understand call, which carried the questions.
    const calls = provider.requests.slice(before);
    expect(calls.map((c) => c.call)).toEqual(['understand']);
    expect(calls[0].system).toContain('## Questions');
    expect(calls[0].system).toContain('"pergunta:0": O cliente quer falar com um humano?');
  });

  it('if and when must both hold', async () => {
    const { a } = setup(() => ({ 'pergunta:0': false, 'pergunta:1': true }));
    await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    const r2 = await a.turn({ sessionId: 's', message: 'sim', id: 'm2' });
    // cidade is unknown, so branch 1 does not hold: the step moves on to the next one.
    expect(r2.messages.map((m) => m.text)).toEqual(['Sem problemas.']);
    const r3 = await a.turn({ sessionId: 't', message: 'oi', id: 'm1', data: { cidade: 'Curitiba' } });
    expect(r3.session.runs[0].stepId).toBe('pergunta');
    const r4 = await a.turn({ sessionId: 't', message: 'sim', id: 'm2' });
    expect(r4.messages.map((m) => m.text)).toEqual(['Reservando.']);
  });
});

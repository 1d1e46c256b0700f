// engine.md §2 steps: say, talk with prompt or collect, already-known, max-asks, question, then, step-loop.
import type { Flow, ModelRequest } from '@falai/agent';
import { agent, model } from './support';

const speaker = (req: ModelRequest) => ({ structured: { message: /## Now\n(.+)/.exec(req.context ?? '')?.[1] ?? `ask:${Object.keys((req.schema?.schema as { properties: object }).properties).filter((k) => k !== 'message').join(',')}` } });
const catchAll = (steps: Flow['steps']): Flow[] => [{ id: 'f', name: 'F', on: [{ message: [] }], steps }];
const fields = { cidade: { type: 'string' as const, ask: 'Pergunte a cidade.' }, noites: { type: 'integer' as const } };

function extracting(values: Record<string, Record<string, unknown>>) {
  return (req: ModelRequest) => {
    const last = req.history[req.history.length - 1];
    return { structured: { fields: values[last.role === 'user' ? last.content : ''] ?? {} } };
  };
}

describe('steps', () => {
  it('say steps are sent word for word with no call, and a talk step after them speaks in the same turn', async () => {
    const provider = model(speaker);
    const r = await agent({ provider, flows: catchAll([{ id: 'ola', say: 'Olá!' }, { id: 'p', prompt: 'fale' }]) }).turn({ sessionId: 's', message: 'oi', id: 'm1' });
    expect(r.messages).toEqual([
      { text: 'Olá!', kind: 'verbatim', key: 'f#m1:ola:1' },
      { text: 'fale', kind: 'ai', key: 'f#m1:p:1' },
    ]);
    expect(r.llmCalls).toBe(1);
  });

  it('a prompt step speaks once and moves on; the next talk step speaks on the next message, say steps on the way at once', async () => {
    const provider = model(speaker);
    const a = agent({ provider, flows: catchAll([{ id: 'p1', prompt: 'um' }, { id: 'aviso', say: 'Aviso.' }, { id: 'p2', prompt: 'dois' }]) });
    const first = await a.turn({ sessionId: 's', message: 'oi' });
    expect(first.messages.map((m) => m.text)).toEqual(['um', 'Aviso.']);
    expect(first.session.runs[0]).toMatchObject({ stepId: 'p2', status: 'asking' });
    const second = await a.turn({ sessionId: 's', message: 'e aí' });
    expect(second.messages.map((m) => m.text)).toEqual(['dois']);
    expect(second.ended.map((r) => r.reason)).toEqual(['completed']);
  });

  it('a step whose collect list is all known is skipped with no call, whatever its prompt (already-known)', async () => {
    const provider = model(speaker);
    const a = agent({ provider, fields, flows: catchAll([{ id: 'onde', collect: ['cidade'], prompt: 'Confirme a cidade.' }, { id: 'fim', say: 'Até!' }]) });
    const r = await a.turn({ sessionId: 's', message: 'oi', data: { cidade: 'Curitiba' } });
    expect(provider.calls('speak')).toEqual([]);
    expect(r.outcomes.map((o) => [o.stepId, o.status, o.code])).toEqual([['onde', 'skipped', 'already-known'], ['fim', 'ok', 'said']]);
    expect(r.messages.map((m) => m.text)).toEqual(['Até!']);
  });

  it('a step with pending fields speaks, asks and waits; it ends when the reply gives the value', async () => {
    const provider = model(speaker, extracting({ 'Curitiba': { cidade: 'Curitiba' } }));
    const a = agent({ provider, fields, flows: catchAll([{ id: 'onde', collect: ['cidade'] }, { id: 'fim', say: 'Anotado.' }]) });
    const asked = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    expect(asked.messages).toEqual([{ text: 'ask:cidade', kind: 'ai', key: 'f#m1:onde:1' }]);
    expect(asked.session.runs[0]).toMatchObject({ status: 'asking', asked: { cidade: 1 } });
    expect(provider.calls('speak')[0].context).toContain('Pergunte a cidade.');
    const answered = await a.turn({ sessionId: 's', message: 'Curitiba', id: 'm2' });
    expect(answered.outcomes.map((o) => o.code)).toEqual(['collected', 'said']);
    expect(answered.messages.map((m) => m.text)).toEqual(['Anotado.']);
    expect(answered.session.data).toEqual({ cidade: 'Curitiba' });
  });

  it('the step asks again while the field is missing; each reply gets its own visit key', async () => {
    const provider = model(speaker, extracting({}));
    const a = agent({ provider, fields, flows: catchAll([{ id: 'onde', collect: ['cidade'] }]) });
    const first = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    const second = await a.turn({ sessionId: 's', message: 'hmm', id: 'm2' });
    expect([first.messages[0].key, second.messages[0].key]).toEqual(['f#m1:onde:1', 'f#m1:onde:2']);
    expect(second.session.runs[0].asked).toEqual({ cidade: 2 });
  });

  it('a step\'s ask overrides the field\'s ask', async () => {
    const provider = model(speaker);
    await agent({ provider, fields, flows: catchAll([{ id: 'onde', collect: ['cidade'], ask: { cidade: 'Qual cidade, por favor?' } }]) }).turn({ sessionId: 's', message: 'oi' });
    expect(provider.requests.find((r) => r.call === 'speak')!.context).toContain('Qual cidade, por favor?');
  });

  it('a field asked maxAsks times stops being asked, and the step moves on (max-asks)', async () => {
    const provider = model(speaker, extracting({}));
    const a = agent({ provider, fields, flows: catchAll([{ id: 'onde', collect: ['cidade'], maxAsks: 2 }, { id: 'fim', say: 'Seguimos sem a cidade.' }]) });
    await a.turn({ sessionId: 's', message: 'a' });
    await a.turn({ sessionId: 's', message: 'b' });
    const third = await a.turn({ sessionId: 's', message: 'c' });
    expect(third.outcomes.map((o) => [o.code, o.status])).toEqual([['max-asks', 'skipped'], ['said', 'ok']]);
    expect(third.outcomes[0].detail).toEqual({ fields: ['cidade'] });
    expect(third.messages.map((m) => m.text)).toEqual(['Seguimos sem a cidade.']);
    expect(provider.calls('speak')).toHaveLength(2);
  });

  it('maxAsks defaults to 3', async () => {
    const provider = model(speaker, extracting({}));
    const a = agent({ provider, fields, flows: catchAll([{ id: 'onde', collect: ['cidade'] }]) });
    for (const m of ['a', 'b', 'c']) await a.turn({ sessionId: 's', message: m });
    const fourth = await a.turn({ sessionId: 's', message: 'd' });
    expect(fourth.outcomes[0]).toMatchObject({ code: 'max-asks' });
    // The three asks; the fourth message goes to the idle speaker once the run gave up.
    expect(provider.calls('speak').map((r) => r.context?.includes('## Ask for'))).toEqual([true, true, true, false]);
  });

  it('only the fields still under maxAsks are asked for', async () => {
    const provider = model(speaker, extracting({}));
    const a = agent({ provider, fields, flows: catchAll([{ id: 'q', collect: ['cidade', 'noites'], maxAsks: 1 }]) });
    const r = await a.turn({ sessionId: 's', message: 'a' });
    expect(r.messages[0].text).toBe('ask:cidade,noites');
  });

  it('question: the first ask is sent word for word with no model call; later asks use the model', async () => {
    const provider = model(speaker, extracting({}));
    const a = agent({ provider, fields, flows: catchAll([{ id: 'onde', collect: ['cidade'], question: 'Em qual cidade?' }]) });
    const first = await a.turn({ sessionId: 's', message: 'oi', id: 'm1' });
    expect(first.messages).toEqual([{ text: 'Em qual cidade?', kind: 'verbatim', key: 'f#m1:onde:1' }]);
    expect(provider.calls('speak')).toEqual([]);
    expect(first.outcomes.map((o) => o.code)).toEqual(['question']);
    const second = await a.turn({ sessionId: 's', message: 'hmm', id: 'm2' });
    expect(second.messages[0]).toMatchObject({ kind: 'ai', text: 'ask:cidade' });
  });

  it('then jumps to the named step, and "end" ends the run', async () => {
    const provider = model(speaker);
    const a = agent({ provider, flows: catchAll([{ id: 'a', say: 'A', then: 'c' }, { id: 'b', say: 'B' }, { id: 'c', say: 'C', then: 'end' }, { id: 'd', say: 'D' }]) });
    const r = await a.turn({ sessionId: 's', message: 'x' });
    expect(r.messages.map((m) => m.text)).toEqual(['A', 'C']);
    expect(r.ended).toEqual([expect.objectContaining({ flowId: 'f', reason: 'completed' })]);
  });

  it('a run that moves through 50 steps in one turn ends (step-loop)', async () => {
    const provider = model(speaker);
    const a = agent({ provider, idle: 'silent', flows: catchAll([{ id: 'a', say: 'A', then: 'b' }, { id: 'b', say: 'B', then: 'a' }]) });
    const r = await a.turn({ sessionId: 's', message: 'x' });
    expect(r.messages).toHaveLength(50);
    expect(r.ended).toEqual([expect.objectContaining({ reason: 'step-loop', code: 'step-loop' })]);
    expect(r.outcomes[r.outcomes.length - 1]).toMatchObject({ status: 'failed', code: 'step-loop' });
  });

  it('a value given in the speak envelope ends the collect step', async () => {
    const provider = model(() => ({ structured: { message: 'Anotado, 3 noites.', noites: '3' } }));
    const a = agent({ provider, fields, flows: catchAll([{ id: 'q', collect: ['noites'] }, { id: 'fim', say: 'Fim.' }]) });
    const r = await a.turn({ sessionId: 's', message: 'três noites' });
    expect(r.session.data).toEqual({ noites: 3 });
    expect(r.messages.map((m) => m.text)).toEqual(['Anotado, 3 noites.', 'Fim.']);
  });

  it('envelope values merge across rounds, last wins', async () => {
    const provider = model((req) =>
      req.round === 1
        ? { structured: { message: '', noites: 2, cidade: 'Recife' }, toolCalls: [{ name: 'ping', arguments: {} }] }
        : { structured: { message: 'Anotado.', noites: 3 } },
    );
    const a = agent({ provider, fields, tools: [{ id: 'ping', handler: () => ({}) }], flows: catchAll([{ id: 'q', collect: ['cidade', 'noites'] }]) });
    const r = await a.turn({ sessionId: 's', message: 'Recife, 3 noites' });
    expect(r.session.data).toEqual({ cidade: 'Recife', noites: 3 });
  });

  it('a live run whose step is gone from a new agent version ends failed (missing-step) and the idle speaker answers', async () => {
    const provider = model(speaker);
    const old = agent({ provider, fields, flows: catchAll([{ id: 'onde', collect: ['cidade'] }]) });
    const first = await old.turn({ sessionId: 's', message: 'oi' });
    const next = agent({ provider, fields, flows: catchAll([{ id: 'cidade', collect: ['cidade'] }]) });
    const r = await next.turn({ sessionId: 's', message: 'Recife', session: first.session });
    expect(r.ended).toEqual([expect.objectContaining({ reason: 'failed', code: 'missing-step' })]);
    expect(r.outcomes[0]).toMatchObject({ status: 'failed', code: 'missing-step', stepId: 'onde' });
    expect(r.messages).toEqual([expect.objectContaining({ kind: 'ai', key: expect.stringMatching(/^idle:/) })]);
  });
});

// engine.md §2: starting flows, the floor, suspended runs, catch-alls, the idle speaker.
import type { Flow, ModelRequest } from '@falai/agent';
import { agent, model } from './support';

/** Speaks "<flow>/<step>" (or "idle"), read back from the step prompt, so tests see who spoke. */
const speaker = (req: ModelRequest) => {
  const now = /## Now\n(.+)/.exec(req.context ?? '')?.[1] ?? 'idle';
  return { structured: { message: now } };
};

function scoring(scores: Record<string, Record<string, number>>) {
  // Scores keyed by the user message.
  return (req: ModelRequest) => {
    const last = req.history[req.history.length - 1];
    return { structured: { flows: scores[last.role === 'user' ? last.content : ''] ?? {} } };
  };
}

const flow = (id: string, steps?: Flow['steps'], phrases = [`${id} phrase`], repeat?: 'always'): Flow => ({
  id,
  name: id,
  on: [{ message: phrases, ...(repeat ? { repeat } : {}) }],
  steps: steps ?? [
    { id: 'um', prompt: `${id}/um` },
    { id: 'dois', prompt: `${id}/dois` },
  ],
});

describe('routing', () => {
  it('a flow scoring 40 starts; 39 does not and the idle speaker answers', async () => {
    const provider = model(speaker, scoring({ a: { vendas: 40 }, b: { vendas: 39 } }));
    const a = agent({ provider, flows: [flow('vendas')] });
    const started = await a.turn({ sessionId: 's1', message: 'a', id: 'm1' });
    expect(started.started.map((r) => r.id)).toEqual(['vendas#m1']);
    expect(started.messages).toEqual([{ text: 'vendas/um', kind: 'ai', key: 'vendas#m1:um:1' }]);
    const idle = await a.turn({ sessionId: 's2', message: 'b', id: 'm1' });
    expect(idle.started).toEqual([]);
    expect(idle.messages).toEqual([{ text: 'idle', kind: 'ai', key: 'idle:m1' }]);
  });

  it('the best score starts, ties going to the first flow', async () => {
    const provider = model(speaker, scoring({ x: { a: 60, b: 80 }, y: { a: 70, b: 70 } }));
    const a = agent({ provider, flows: [flow('a'), flow('b')] });
    expect((await a.turn({ sessionId: 's1', message: 'x' })).started.map((r) => r.flowId)).toEqual(['b']);
    expect((await a.turn({ sessionId: 's2', message: 'y' })).started.map((r) => r.flowId)).toEqual(['a']);
  });

  it('a run id is flowId#triggerKey: the message id, else the time in ms', async () => {
    const provider = model(speaker, scoring({ x: { a: 90 } }));
    const a = agent({ provider, flows: [flow('a')] });
    const r = await a.turn({ sessionId: 's', message: 'x' });
    expect(r.started[0].id).toBe(`a#${Date.parse('2026-12-02T12:00:00.000Z')}`);
  });

  it('the asking run keeps the floor unless a flow scores >= 40 and >= 15 above it', async () => {
    const provider = model(speaker, scoring({ start: { a: 90 }, near: { a: 40, b: 54 }, far: { a: 40, b: 55 } }));
    const a = agent({ provider, flows: [flow('a'), flow('b')] });
    await a.turn({ sessionId: 's', message: 'start' });
    const kept = await a.turn({ sessionId: 's', message: 'near' });
    expect(kept.messages.map((m) => m.text)).toEqual(['a/dois']);
    expect(kept.started).toEqual([]);
  });

  it('a flow 15 above the asker takes the floor and the asker is suspended', async () => {
    const provider = model(speaker, scoring({ start: { a: 90 }, far: { a: 40, b: 55 } }));
    const a = agent({ provider, flows: [flow('a'), flow('b')] });
    await a.turn({ sessionId: 's', message: 'start', id: 'm1' });
    const taken = await a.turn({ sessionId: 's', message: 'far', id: 'm2' });
    expect(taken.messages.map((m) => m.text)).toEqual(['b/um']);
    expect(taken.session.runs.map((r) => [r.id, r.status])).toEqual([
      ['a#m1', 'suspended'],
      ['b#m2', 'asking'],
    ]);
  });

  it('a flow below 40 never takes the floor, however far above the asker', async () => {
    const provider = model(speaker, scoring({ start: { a: 90 }, low: { a: 0, b: 39 } }));
    const a = agent({ provider, flows: [flow('a'), flow('b')] });
    await a.turn({ sessionId: 's', message: 'start' });
    const kept = await a.turn({ sessionId: 's', message: 'low' });
    expect(kept.messages.map((m) => m.text)).toEqual(['a/dois']);
  });

  it('the most recently suspended run resumes when nobody asks', async () => {
    const provider = model(speaker, scoring({ start: { a: 90 }, take: { a: 0, b: 90 } }));
    const short = flow('b', [{ id: 'so', prompt: 'b/so' }]);
    const a = agent({ provider, flows: [flow('a', [{ id: 'um', prompt: 'a/um' }, { id: 'dois', prompt: 'a/dois' }, { id: 'tres', prompt: 'a/tres' }]), short] });
    await a.turn({ sessionId: 's', message: 'start' });
    const took = await a.turn({ sessionId: 's', message: 'take' });
    // b spoke its only step and ended; a stays suspended until the next message.
    expect(took.ended.map((r) => r.flowId)).toEqual(['b']);
    const back = await a.turn({ sessionId: 's', message: 'anything' });
    expect(back.messages.map((m) => m.text)).toEqual(['a/dois']);
    expect(back.session.runs.map((r) => r.status)).toEqual(['asking']);
  });

  it('with no asker and no score, the first catch-all starts', async () => {
    const provider = model(speaker, scoring({}));
    const a = agent({ provider, flows: [flow('a'), flow('geral', [{ id: 'g', prompt: 'geral/g' }], []), flow('outro', [{ id: 'o', prompt: 'outro/o' }], [])] });
    const r = await a.turn({ sessionId: 's', message: 'hmm' });
    expect(r.messages.map((m) => m.text)).toEqual(['geral/g']);
  });

  it('a flow starts at most once per session', async () => {
    const provider = model(speaker, scoring({ go: { a: 90 } }));
    const a = agent({ provider, flows: [flow('a', [{ id: 'so', prompt: 'a/so' }])] });
    expect((await a.turn({ sessionId: 's', message: 'go' })).started).toHaveLength(1);
    const again = await a.turn({ sessionId: 's', message: 'go' });
    expect(again.started).toEqual([]);
    expect(again.messages.map((m) => m.text)).toEqual(['idle']);
    expect(provider.calls('understand')).toHaveLength(1);
  });

  it('repeat: "always" lets a flow start again once its run ended', async () => {
    const provider = model(speaker, scoring({ go: { a: 90 } }));
    const a = agent({ provider, flows: [flow('a', [{ id: 'so', prompt: 'a/so' }], ['a phrase'], 'always')] });
    await a.turn({ sessionId: 's', message: 'go', id: 'm1' });
    const again = await a.turn({ sessionId: 's', message: 'go', id: 'm2' });
    expect(again.started.map((r) => r.id)).toEqual(['a#m2']);
    expect(again.session.claims).toEqual({ 'a:0': '2026-12-02T12:00:00.000Z' });
  });

  it('the idle speaker answers with idle.prompt and idle.instructions', async () => {
    const provider = model(speaker);
    const r = await agent({ provider, idle: { prompt: 'Responda com educação.', instructions: 'Você é o concierge.' } }).turn({ sessionId: 's', message: 'oi', id: 'm9' });
    expect(r.messages).toEqual([{ text: 'Responda com educação.', kind: 'ai', key: 'idle:m9' }]);
    expect(provider.requests[0].context).toContain('Você é o concierge.');
    expect(r.outcomes).toEqual([expect.objectContaining({ kind: 'idle', status: 'ok', code: 'spoke', llmCalls: 1 })]);
  });

  it('idle "silent" sends no answer and makes no call', async () => {
    const provider = model(speaker);
    const r = await agent({ provider, idle: 'silent' }).turn({ sessionId: 's', message: 'oi' });
    expect(r.messages).toEqual([]);
    expect(r.llmCalls).toBe(0);
    expect(r.changed).toBe(true);
    expect(r.outcomes).toEqual([expect.objectContaining({ kind: 'idle', status: 'skipped', code: 'silent' })]);
  });

  it('one answer per message: a run that ends without a word leaves the message to the idle speaker', async () => {
    const provider = model(speaker, scoring({ go: { a: 90 } }));
    const a = agent({ provider, fields: { cidade: { type: 'string' } }, flows: [flow('a', [{ id: 'c', collect: ['cidade'] }])] });
    const r = await a.turn({ sessionId: 's', message: 'go', data: { cidade: 'Curitiba' } });
    expect(r.outcomes.map((o) => o.code)).toEqual(['already-known', 'spoke']);
    expect(r.messages.map((m) => m.text)).toEqual(['idle']);
  });
});

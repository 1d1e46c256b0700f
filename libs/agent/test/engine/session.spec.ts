// engine.md §3 and §5: duplicate input, the session blob, the default store, versions, replays.
import { MemoryStore, SessionConflictError, TurnInputError, type Session } from '@falai/agent';
import { agent, model, says, T0 } from './support';

const flows = [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'onde', collect: ['cidade'] }] }];
const fields = { cidade: { type: 'string' as const } };

describe('sessions', () => {
  it('a message id already seen is ignored: duplicate-input, changed false, no call', async () => {
    const provider = model(says('oi'));
    const a = agent({ provider });
    const first = await a.turn({ sessionId: 's', message: 'olá', id: 'm1' });
    const again = await a.turn({ sessionId: 's', message: 'olá', id: 'm1', session: first.session });
    expect(again.changed).toBe(false);
    expect(again.llmCalls).toBe(0);
    expect(again.messages).toEqual([]);
    expect(again.outcomes).toEqual([expect.objectContaining({ status: 'skipped', code: 'duplicate-input' })]);
    expect(again.session).toEqual(first.session);
    expect(provider.requests).toHaveLength(1);
  });

  it('keeps the last 50 input ids, oldest first', async () => {
    const a = agent({ provider: model(says('ok')), idle: 'silent' });
    let session: Session | undefined;
    for (let i = 1; i <= 52; i += 1) session = (await a.turn({ sessionId: 's', message: 'x', id: `m${i}`, session })).session;
    expect(session!.inputs).toHaveLength(50);
    expect(session!.inputs[0]).toBe('m3');
    expect(session!.inputs[49]).toBe('m52');
    // m1 fell out of the window: it is no longer a duplicate.
    expect((await a.turn({ sessionId: 's', message: 'x', id: 'm1', session })).changed).toBe(true);
  });

  it('the session blob is JSON-safe with ISO dates', async () => {
    const r = await agent({ provider: model(says('Em qual cidade?')), fields, flows }).turn({ sessionId: 's', message: 'oi', id: 'm1' });
    expect(JSON.parse(JSON.stringify(r.session))).toEqual(r.session);
    expect(r.session).toMatchObject({ id: 's', data: {}, claims: { 'f:0': T0 }, inputs: ['m1'], lastUserAt: T0, lastAssistantAt: T0, metadata: {} });
    expect(r.session.runs[0]).toMatchObject({ id: 'f#m1', flowId: 'f', stepId: 'onde', status: 'asking', asked: { cidade: 1 }, visits: { onde: 1 }, startedAt: T0 });
    expect(r.session.runs[0].outcomes).toEqual(r.outcomes);
  });

  it('without a session, the agent\'s store is used: MemoryStore by default, saved at version n+1', async () => {
    const a = agent({ provider: model(says('ok')) });
    const first = await a.turn({ sessionId: 's', message: 'um', id: 'm1' });
    const second = await a.turn({ sessionId: 's', message: 'dois', id: 'm2' });
    expect(first.session.version).toBe(1);
    expect(second.session.version).toBe(2);
    expect(second.session.inputs).toEqual(['m1', 'm2']);
  });

  it('with a session passed in, the engine neither saves nor bumps the version, and leaves the host object alone', async () => {
    const store = new MemoryStore();
    const a = agent({ provider: model(says('ok')), fields, flows, store });
    const saved = await store.save({ id: 's', version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: {} }, 0);
    const before = structuredClone(saved);
    const r = await a.turn({ sessionId: 's', message: 'oi', id: 'm1', session: saved });
    expect(r.session.version).toBe(1);
    expect(saved).toEqual(before);
    expect((await store.load('s'))!.inputs).toEqual([]);
  });

  it('the host loop: a save against a stale version throws SessionConflictError; reload and replay wins', async () => {
    const store = new MemoryStore();
    const a = agent({ provider: model(says('ok')), fields, flows, store });
    const loaded = (await store.load('s')) ?? { id: 's', version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: {} };
    const one = await a.turn({ sessionId: 's', message: 'um', id: 'm1', session: loaded });
    const two = await a.turn({ sessionId: 's', message: 'dois', id: 'm2', session: loaded });
    await store.save(one.session, loaded.version);
    await expect(store.save(two.session, loaded.version)).rejects.toBeInstanceOf(SessionConflictError);
    const reloaded = (await store.load('s'))!;
    const replay = await a.turn({ sessionId: 's', message: 'dois', id: 'm2', session: reloaded });
    const saved = await store.save(replay.session, reloaded.version);
    expect(saved.inputs).toEqual(['m1', 'm2']);
    expect(saved.version).toBe(2);
  });

  it('a conflict in the agent\'s own store rejects the turn with SessionConflictError', async () => {
    const store = new MemoryStore();
    const slow = { load: (id: string) => store.load(id), save: async (s: Session, v: number) => (await store.save({ ...s }, v), store.save(s, v)) };
    const a = agent({ provider: model(says('ok')), store: slow });
    await expect(a.turn({ sessionId: 's', message: 'x' })).rejects.toBeInstanceOf(SessionConflictError);
  });

  it('the same input on the same session builds the same keys, messages and schedule', async () => {
    const provider = model(says('Em qual cidade?'));
    const a = agent({ provider, fields, flows });
    const start = (await a.turn({ sessionId: 's', message: 'oi', id: 'm1' })).session;
    const r1 = await a.turn({ sessionId: 's', message: 'hmm', id: 'm2', session: start });
    const r2 = await a.turn({ sessionId: 's', message: 'hmm', id: 'm2', session: start });
    expect(r2.messages).toEqual(r1.messages);
    expect(r2.schedule).toEqual(r1.schedule);
    expect(r2.session).toEqual(r1.session);
  });

  it('refuses input it cannot run with TurnInputError', async () => {
    const a = agent({ provider: model(says('ok')) });
    await expect(a.turn({ sessionId: 's' })).rejects.toBeInstanceOf(TurnInputError);
    await expect(a.turn({ sessionId: '', message: 'x' })).rejects.toMatchObject({ code: 'invalid-turn-input' });
    const other = { id: 'x', version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: {} };
    await expect(a.turn({ sessionId: 's', message: 'x', session: other })).rejects.toThrow(/session "x" was passed for sessionId "s"/);
  });

  it('input data the host knows is written as given before the turn runs', async () => {
    const provider = model(says('ok'));
    const r = await agent({ provider, fields, flows }).turn({ sessionId: 's', message: 'oi', data: { cidade: 'Recife' } });
    expect(r.session.data).toEqual({ cidade: 'Recife' });
    expect(r.outcomes[0]).toMatchObject({ code: 'already-known' });
  });
});

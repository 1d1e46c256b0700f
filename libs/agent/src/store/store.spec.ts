import type { Session } from '../types/session';
import { InvalidSaveError, isSessionConflictError, MemoryStore, newSession, SessionConflictError } from './index';

function conflict(promise: Promise<unknown>): Promise<SessionConflictError> {
  return promise.then(
    () => {
      throw new Error('the save went through');
    },
    (err: unknown) => {
      if (err instanceof SessionConflictError) return err;
      throw err;
    },
  );
}

describe('newSession', () => {
  it('is empty, JSON-safe and at version 0', () => {
    const session = newSession('s-1');
    expect(session).toEqual({ id: 's-1', version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: {} });
    expect(JSON.parse(JSON.stringify(session))).toEqual(session);
  });
});

describe('MemoryStore', () => {
  it('loads nothing for an unknown id', async () => {
    expect(await new MemoryStore().load('nobody')).toBeUndefined();
  });

  it('inserts with expectedVersion 0 and stores version 1', async () => {
    const store = new MemoryStore();
    const saved = await store.save({ ...newSession('s-1'), data: { cidade: 'Curitiba' } }, 0);
    expect(saved.version).toBe(1);
    expect(await store.load('s-1')).toEqual({ ...newSession('s-1'), version: 1, data: { cidade: 'Curitiba' } });
  });

  it('updates a row still at n and stores n + 1', async () => {
    const store = new MemoryStore();
    await store.save(newSession('s-1'), 0);
    const loaded = (await store.load('s-1'))!;
    const saved = await store.save({ ...loaded, data: { hospedes: 2 } }, loaded.version);
    expect(saved.version).toBe(2);
    expect((await store.load('s-1'))!.data).toEqual({ hospedes: 2 });
  });

  it('ignores the version inside the session: the engine never bumps it, the store does', async () => {
    const store = new MemoryStore();
    await store.save({ ...newSession('s-1'), version: 41 }, 0);
    expect((await store.load('s-1'))!.version).toBe(1);
  });

  it('refuses a second insert of the same id', async () => {
    const store = new MemoryStore();
    await store.save(newSession('s-1'), 0);
    const err = await conflict(store.save(newSession('s-1'), 0));
    expect(err.code).toBe('session-conflict');
    expect(err.message).toBe(
      '[SessionConflictError] session "s-1": it was saved as new (expected version 0) but a row already exists at version 1. Reload the session, replay the input, and save again.',
    );
    expect([err.sessionId, err.expectedVersion, err.actualVersion]).toEqual(['s-1', 0, 1]);
    expect(isSessionConflictError(err)).toBe(true);
  });

  it('refuses a stale update and keeps the winner', async () => {
    const store = new MemoryStore();
    await store.save(newSession('s-1'), 0);
    const a = (await store.load('s-1'))!;
    const b = (await store.load('s-1'))!;
    await store.save({ ...a, data: { winner: 'a' } }, a.version);
    const err = await conflict(store.save({ ...b, data: { winner: 'b' } }, b.version));
    expect(err.message).toBe(
      '[SessionConflictError] session "s-1": expected version 1 but the stored row is at version 2. Reload the session, replay the input, and save again.',
    );
    expect(await store.load('s-1')).toMatchObject({ version: 2, data: { winner: 'a' } });
  });

  it('refuses an update of a row that does not exist', async () => {
    const err = await conflict(new MemoryStore().save(newSession('s-9'), 3));
    expect(err.message).toBe(
      '[SessionConflictError] session "s-9": expected version 3 but no row exists. Reload the session, replay the input, and save again.',
    );
    expect(err.actualVersion).toBeUndefined();
  });

  it('lets exactly one of many concurrent saves at one version win', async () => {
    const store = new MemoryStore();
    await store.save(newSession('s-1'), 0);
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => store.save({ ...newSession('s-1'), data: { i } }, 1)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && isSessionConflictError(r.reason))).toHaveLength(9);
  });

  it('keeps sessions apart by id', async () => {
    const store = new MemoryStore();
    await store.save({ ...newSession('a'), data: { x: 1 } }, 0);
    await store.save({ ...newSession('b'), data: { x: 2 } }, 0);
    expect((await store.load('a'))!.data).toEqual({ x: 1 });
    expect((await store.load('b'))!.data).toEqual({ x: 2 });
  });

  it('copies on save and on load: callers cannot change stored state', async () => {
    const store = new MemoryStore();
    const session: Session = { ...newSession('s-1'), data: { cidade: 'Curitiba' }, inputs: ['m1'] };
    const saved = await store.save(session, 0);
    session.data.cidade = 'Recife';
    session.inputs.push('m2');
    saved.data.cidade = 'Natal';
    const loaded = (await store.load('s-1'))!;
    loaded.runs.push({} as never);
    expect(await store.load('s-1')).toEqual({ ...newSession('s-1'), version: 1, data: { cidade: 'Curitiba' }, inputs: ['m1'] });
  });

  it('stores what a database would: JSON', async () => {
    const store = new MemoryStore();
    await store.save({ ...newSession('s-1'), metadata: { at: new Date('2026-12-02T13:00:00Z'), gone: undefined } }, 0);
    expect((await store.load('s-1'))!.metadata).toEqual({ at: '2026-12-02T13:00:00.000Z' });
  });

  it.each<[string, unknown, unknown, string]>([
    ['a negative version', newSession('s-1'), -1, '[InvalidSaveError] expectedVersion must be a whole number, 0 or more, got -1.'],
    ['a fractional version', newSession('s-1'), 1.5, '[InvalidSaveError] expectedVersion must be a whole number, 0 or more, got 1.5.'],
    ['a missing version', newSession('s-1'), undefined, '[InvalidSaveError] expectedVersion must be a whole number, 0 or more, got undefined.'],
    ['a session without an id', { ...newSession(''), id: '' }, 0, '[InvalidSaveError] save needs a session with a non-empty string id.'],
  ])('refuses %s as a host bug', async (_name, session, version, message) => {
    const save = new MemoryStore().save(session as Session, version as number);
    await expect(save).rejects.toThrow(InvalidSaveError);
    await expect(save).rejects.toThrow(message);
  });
});

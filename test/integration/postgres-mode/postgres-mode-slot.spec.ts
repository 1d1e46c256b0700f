import {
  acquirePostgresModeSlot,
  assertPostgresModeSlot,
  isPostgresMode,
  releasePostgresModeSlot,
  SLOT_WAIT_MS,
} from '../../support/postgres-mode-slot';

// The slot that keeps two suites of Postgres-mode apps from running side by side (and out of
// Postgres's connections): the apps' own choice of mode, mutual exclusion across processes, and
// the refusal to start such apps without it.

type SlotModule = typeof import('../../support/postgres-mode-slot');

/** A second copy of the module: its own connection, as another jest worker would have. */
function otherWorkersSlot(): SlotModule {
  let copy!: SlotModule;
  jest.isolateModules(() => {
    copy = jest.requireActual<SlotModule>('../../support/postgres-mode-slot');
  });
  return copy;
}

describe('the Postgres-mode slot', () => {
  it('reads Postgres mode as the apps do: QUEUE_BACKEND=postgres, or no REDIS_URL', () => {
    expect(isPostgresMode({ QUEUE_BACKEND: 'postgres', REDIS_URL: 'redis://127.0.0.1:6379' })).toBe(true);
    expect(isPostgresMode({ REDIS_URL: '' })).toBe(true);
    expect(isPostgresMode({})).toBe(true);
    expect(isPostgresMode({ REDIS_URL: 'redis://127.0.0.1:6379' })).toBe(false);
    expect(isPostgresMode({ QUEUE_BACKEND: 'redis', REDIS_URL: '' })).toBe(false);
    // Empty is unset, as loadEnv reads it.
    expect(isPostgresMode({ QUEUE_BACKEND: '', REDIS_URL: '' })).toBe(true);
  });

  it('refuses to start Postgres-mode apps without it', () => {
    expect(() => assertPostgresModeSlot('a worker')).toThrow(/a worker starts in Postgres mode without the Postgres-mode slot/);
  });

  it(
    'is held by one process at a time: another waits until it is let go',
    async () => {
      await acquirePostgresModeSlot();
      const other = otherWorkersSlot();
      let otherHolds = false;
      const waiting = other.acquirePostgresModeSlot().then(() => (otherHolds = true));
      try {
        expect(() => assertPostgresModeSlot('a worker')).not.toThrow();
        await new Promise((r) => setTimeout(r, 500));
        expect(otherHolds).toBe(false);
        expect(() => other.assertPostgresModeSlot('an API')).toThrow();

        await releasePostgresModeSlot();
        await waiting;
        expect(otherHolds).toBe(true);
        expect(() => other.assertPostgresModeSlot('an API')).not.toThrow();
        expect(() => assertPostgresModeSlot('a worker')).toThrow();
      } finally {
        await releasePostgresModeSlot();
        await waiting.catch(() => undefined);
        await other.releasePostgresModeSlot();
      }
    },
    SLOT_WAIT_MS + 10_000,
  );

  it(
    'let go while still waiting (an afterAll after its beforeAll timed out), it stops waiting and is never held',
    async () => {
      await acquirePostgresModeSlot();
      const other = otherWorkersSlot();
      const waiting = other.acquirePostgresModeSlot();
      // Let go at once, not after the wait: its connection closes, and the wait fails.
      await other.releasePostgresModeSlot();
      await expect(waiting).rejects.toThrow(/could not take the Postgres-mode slot/);
      expect(() => other.assertPostgresModeSlot('an API')).toThrow();
      expect(() => assertPostgresModeSlot('a worker')).not.toThrow();
      await releasePostgresModeSlot();
      // The closed connection's wait does not keep the lock from this process either.
      await acquirePostgresModeSlot();
      expect(() => assertPostgresModeSlot('a worker')).not.toThrow();
      await releasePostgresModeSlot();
    },
    SLOT_WAIT_MS + 10_000,
  );

  it('is shared by nested holds in one process, and let go with the last', async () => {
    await acquirePostgresModeSlot();
    await acquirePostgresModeSlot();
    await releasePostgresModeSlot();
    expect(() => assertPostgresModeSlot('a worker')).not.toThrow();
    await releasePostgresModeSlot();
    expect(() => assertPostgresModeSlot('a worker')).toThrow();
  }, SLOT_WAIT_MS + 10_000);
});

import type { Session, Store } from '@falai/agent';

export class EngineStoreMisuseError extends Error {
  readonly code = 'engine-store-misuse';
  constructor() {
    super('[EngineStoreMisuseError] the engine tried to save a session; in the worker only the commit transaction saves sessions.');
    this.name = 'EngineStoreMisuseError';
  }
}

/**
 * The engine's store in the worker: sessions live in Postgres and the worker passes each turn its
 * session, so the engine must never fall back to a process-local store (a MemoryStore shared by a
 * cached agent would leak one session's state into another's turn).
 */
export const hostStore: Store = {
  load: async (): Promise<Session | undefined> => undefined,
  save: async (): Promise<Session> => {
    throw new EngineStoreMisuseError();
  },
};

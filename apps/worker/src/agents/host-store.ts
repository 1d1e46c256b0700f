import type { Session, Store } from '@falai/agent';

/**
 * The engine's store in the worker. Sessions live in Postgres: the worker passes each turn the
 * stored session and saves the result in its commit transaction (version-checked there). For a
 * session's first turn there is nothing stored, so the engine starts a new session and "saves"
 * it here: a pass-through, because the commit is the real save. The engine must never fall back
 * to a process-local store — a MemoryStore shared by a cached agent would leak one session's
 * state into another's turn.
 */
export const hostStore: Store = {
  load: async (): Promise<Session | undefined> => undefined,
  save: async (session: Session): Promise<Session> => session,
};

// The default Store (engine.md §5): sessions in a Map, as JSON text. Keeping text means every
// load and save is a deep copy, so no caller can change stored state by holding an object,
// and anything that would not survive a database (a Date, undefined) does not survive here.
import type { Store } from '../types/agent';
import type { Session } from '../types/session';
import { InvalidSaveError, SessionConflictError } from './errors';

export class MemoryStore implements Store {
  private readonly rows = new Map<string, { version: number; json: string }>();

  async load(id: string): Promise<Session | undefined> {
    const row = this.rows.get(id);
    return row === undefined ? undefined : (JSON.parse(row.json) as Session);
  }

  /** Version 0 inserts; `n` updates a row still at `n` to `n + 1`. Returns the stored session. */
  async save(session: Session, expectedVersion: number): Promise<Session> {
    if (typeof session !== 'object' || session === null || typeof session.id !== 'string' || session.id === '') {
      throw new InvalidSaveError('save needs a session with a non-empty string id');
    }
    if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0) {
      throw new InvalidSaveError(`expectedVersion must be a whole number, 0 or more, got ${String(expectedVersion)}`);
    }
    // Check and write with no await in between: nothing else runs, so the swap is atomic.
    const currentVersion = this.rows.get(session.id)?.version;
    if (currentVersion !== (expectedVersion === 0 ? undefined : expectedVersion)) {
      throw new SessionConflictError(session.id, expectedVersion, currentVersion);
    }
    const version = expectedVersion + 1;
    const json = JSON.stringify({ ...session, version });
    this.rows.set(session.id, { version, json });
    return JSON.parse(json) as Session;
  }
}

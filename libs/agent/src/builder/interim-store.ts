// INTERIM: a minimal in-memory Store used as the agent's default until engine-defs' MemoryStore
// (libs/agent/src/store) lands; then create-agent imports that one and this file goes.
import type { Store } from '../types/agent';
import type { Session } from '../types/session';

export class InterimMemoryStore implements Store {
  private readonly rows = new Map<string, Session>();

  async load(id: string): Promise<Session | undefined> {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : undefined;
  }

  async save(session: Session, expectedVersion: number): Promise<Session> {
    const current = this.rows.get(session.id);
    if ((current?.version ?? 0) !== expectedVersion || (expectedVersion === 0 && current)) {
      throw Object.assign(new Error(`session "${session.id}" is not at version ${expectedVersion}`), { code: 'session-conflict' });
    }
    const stored = { ...structuredClone(session), version: expectedVersion + 1 };
    this.rows.set(session.id, stored);
    return structuredClone(stored);
  }
}

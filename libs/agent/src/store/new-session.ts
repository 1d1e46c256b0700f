import type { Session } from '../types/session';

/** An empty session at version 0: the first save inserts it. */
export function newSession(id: string): Session {
  return { id, version: 0, data: {}, runs: [], claims: {}, inputs: [], metadata: {} };
}

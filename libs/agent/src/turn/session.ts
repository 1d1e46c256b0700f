// The session a turn starts from, and the error for input a turn cannot run.
import { newSession } from '../store/new-session';
import type { Session } from '../types/session';
import type { TurnInput } from '../types/turn';
import type { AgentDefinition } from './definition';

export class TurnInputError extends Error {
  readonly code = 'invalid-turn-input';
  constructor(message: string) {
    super(message);
    this.name = 'TurnInputError';
  }
}

export interface LoadedSession {
  session: Session;
  /** True when the agent's store supplied the session (or none existed): the turn saves it back. */
  managed: boolean;
}

export async function loadSession(def: AgentDefinition, input: TurnInput): Promise<LoadedSession> {
  if (typeof input.sessionId !== 'string' || input.sessionId === '') {
    throw new TurnInputError('turn() needs a sessionId: pass the id of the conversation this input belongs to');
  }
  if (input.wake === undefined && typeof input.message !== 'string') {
    throw new TurnInputError('turn() needs a message or a wake: pass { message } for customer input or { wake } for a scheduled retry');
  }
  if (input.session) {
    if (input.session.id !== input.sessionId) {
      throw new TurnInputError(`session "${input.session.id}" was passed for sessionId "${input.sessionId}": pass the session loaded for that id`);
    }
    // A private copy: the host's object stays as it was loaded, so a conflict can replay it.
    return { session: structuredClone(input.session), managed: false };
  }
  const stored = await def.store.load(input.sessionId);
  return { session: stored ? structuredClone(stored) : newSession(input.sessionId), managed: true };
}

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
  const kinds = [input.wake !== undefined, input.event !== undefined, input.start !== undefined].filter(Boolean).length;
  if (kinds > 1) throw new TurnInputError('turn() takes one of wake, event or start: pass them in separate turns');
  if (kinds === 0 && typeof input.message !== 'string') {
    throw new TurnInputError('turn() needs a message, a wake, an event or a start: pass { message } for customer input, { wake } for a scheduled wake, { event, key } for an event, { start: { flow, key } } to start a flow');
  }
  if (input.wake !== undefined && (typeof input.wake !== 'string' || input.wake === '')) {
    throw new TurnInputError('turn({ wake }) needs the wake key as a non-empty string: pass a key from an earlier schedule[]');
  }
  if (input.event !== undefined) {
    if (typeof input.event !== 'string' || input.event === '') throw new TurnInputError('turn({ event }) needs the event name as a non-empty string');
    if (typeof input.key !== 'string' || input.key === '') {
      throw new TurnInputError(`turn({ event: "${input.event}" }) needs a key: pass the event's own id, so a replayed event is ignored`);
    }
  }
  if (input.start !== undefined) {
    const { flow, key } = input.start as { flow?: unknown; key?: unknown };
    if (typeof flow !== 'string' || !def.flowById.has(flow)) {
      throw new TurnInputError(`turn({ start }) names ${JSON.stringify(flow)}, which is not a flow of this agent: pass one of ${[...def.flowById.keys()].map((id) => JSON.stringify(id)).join(', ') || '(none)'}`);
    }
    if (typeof key !== 'string' || key === '') throw new TurnInputError('turn({ start }) needs a key: pass a non-empty string that names this start, so a replay is ignored');
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

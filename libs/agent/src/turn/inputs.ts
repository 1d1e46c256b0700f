// Bookkeeping every kind of turn shares: remembering input ids, and the one outcome of a turn
// that changes nothing.
import { KEEP_INPUTS } from './definition';
import { isoAt, recordOutcome, type TurnState } from './state';

/** Remembers an input id (dedupe); a customer message also moves `lastUserAt`. */
export function noteInput(state: TurnState, id: string | undefined, fromCustomer: boolean): void {
  const { session } = state;
  if (id !== undefined) {
    session.inputs.push(id);
    if (session.inputs.length > KEEP_INPUTS) session.inputs.splice(0, session.inputs.length - KEEP_INPUTS);
  }
  if (fromCustomer) session.lastUserAt = isoAt(state);
}

export type UnchangedCode = 'stale-wake' | 'broken-wake' | 'duplicate-input' | 'already-running';

/** Records why a turn changes nothing; returns false for `done`. */
export function skip(state: TurnState, code: UnchangedCode, message: string): false {
  recordOutcome(state, { kind: 'idle', status: 'skipped', code, message });
  return false;
}


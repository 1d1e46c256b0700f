// The wakes a saved session still waits on, rebuilt without a model call (engine.md §6), so a
// host that lost its scheduler can re-arm every retry from the session rows alone.
import type { Session } from '../types/session';
import type { ScheduledWake } from '../types/turn';

export function pendingWakes(session: Session): ScheduledWake[] {
  return session.runs.flatMap((run) => (run.status === 'waiting' && run.waiting ? [{ key: run.waiting.key, at: run.waiting.at }] : []));
}

// The wakes a saved session still waits on, rebuilt without a model call (engine.md §6), so a
// host that lost its scheduler can re-arm every wake from the session rows alone: run waits
// (retries, timers, event timeouts, deferred actions), delayed event starts and silence wakes.
import type { Session } from '../types/session';
import type { ScheduledWake } from '../types/turn';

export function pendingWakes(session: Session): ScheduledWake[] {
  const runs = session.runs.flatMap((run) => (run.status === 'waiting' && run.waiting ? [{ key: run.waiting.key, at: run.waiting.at }] : []));
  const others = (session.wakes ?? []).map((wake) => ({ key: wake.key, at: wake.at }));
  return [...runs, ...others];
}

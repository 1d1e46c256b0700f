// Drives one run for this turn: move to a talk step, let it speak, settle, move on, until the
// run parks for the next message, waits for a retry, or ends.
import type { Run } from '../types/session';
import { move } from './move';
import type { TurnState } from './state';
import { talk } from './talk';

export async function drive(state: TurnState, run: Run): Promise<void> {
  run.status = 'running';
  for (;;) {
    const stop = move(state, run);
    if (stop.kind === 'ended') return;
    if (stop.kind === 'park') {
      run.status = 'asking';
      return;
    }
    await talk(state, run, stop.step, stop.asks);
    // A deferred or failed step stops here; a step that spoke moves on (or parks).
    if (stopped(state, run)) return;
  }
}

// A separate function: after `run.status = 'running'` above, TS would narrow the status away.
function stopped(state: TurnState, run: Run): boolean {
  return run.status === 'waiting' || !state.session.runs.includes(run);
}

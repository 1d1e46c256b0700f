// Drives one run for this turn: move to a talk step, let it speak, settle, move on, until the
// run parks for the next message, waits for a wake, or ends. Runs a chain started on the way
// (`then: { flow }`) are driven after it, in order.
import type { Run } from '../types/session';
import { move } from './move';
import type { TurnState } from './state';
import { talk } from './talk';

export async function drive(state: TurnState, run: Run): Promise<void> {
  await driveOne(state, run);
  await drainQueue(state);
}

/** Drives the runs chains started, in order (a chain may start another). */
export async function drainQueue(state: TurnState): Promise<void> {
  while (state.queue.length > 0) await driveOne(state, state.queue.shift()!);
}

async function driveOne(state: TurnState, run: Run): Promise<void> {
  if (!state.driven.includes(run)) state.driven.push(run);
  run.status = 'running';
  for (;;) {
    const stop = await move(state, run);
    if (stop.kind === 'ended' || stop.kind === 'wait') return;
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

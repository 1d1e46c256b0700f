// At most one run asks (engine.md §2). After a turn that drove several runs (a chain, a side
// run, an event that woke two waits), the first run driven that is left asking keeps the floor;
// any other asking run is suspended and resumes when nobody asks.
import { suspend } from './runs';
import type { TurnState } from './state';

export function settleFloor(state: TurnState): void {
  const asking = state.session.runs.filter((r) => r.status === 'asking');
  if (asking.length <= 1) return;
  const keep = state.driven.find((r) => asking.includes(r)) ?? asking[0];
  for (const run of asking) if (run !== keep) suspend(state, run);
}

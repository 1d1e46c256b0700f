/**
 * How many rows one (tenant, agent, day) of the usage roll-ups is spread over. Each turn adds to
 * the row of its session's slot inside its commit transaction, holding that row's lock until
 * COMMIT (the WAL flush included); with one row, concurrent commits of a busy agent waited for
 * each other. With 8, a worker committing for 50 sessions of one agent still waited: the roll-up
 * was 0.6 of the commit's 1.85 ms in Postgres (0.24 of 1.46 ms with 64; docs/hot-path.md). Readers
 * sum the slots and past days are folded into one row, so only today has up to this many.
 * Raising it later is safe (rows are summed whatever their slot); lowering it too.
 */
export const USAGE_SLOTS = 64;

/** The roll-up slot of a session: stable (all its turns add to one row), spread by a string hash. */
export function usageSlot(sessionId: string | undefined): number {
  if (sessionId === undefined) return 0;
  let h = 2166136261; // FNV-1a
  for (let i = 0; i < sessionId.length; i++) h = Math.imul(h ^ sessionId.charCodeAt(i), 16777619);
  return (h >>> 0) % USAGE_SLOTS;
}

// Issue #23's fixed reference points: "today" is its quiet-machine run of
// `npm run bench -- --only=ingest,e2e` before that work (0 ms model), and its targets ask for at
// least three times each, besides the same-run ratios to the baselines.

export const TODAY = {
  /** End to end: answered messages per second (0 ms model). */
  e2ePerSec: 192,
  /** Ingest: POST /v1/messages requests per second. */
  ingestPerSec: 1_509,
} as const;

export const TIMES_TODAY = 3;

export function timesToday(figure: number): number {
  return TIMES_TODAY * figure;
}

/** CPU per answered message, all processes together (worker + API + Postgres + Redis), 0 ms model. */
export const CPU_MS_PER_MESSAGE_TARGET = 3;

/** Postgres round trips per message the hot path may make. */
export const ROUND_TRIPS_TARGET = { ingest: 1, worker: 2 } as const;

/** A turn on a session with LONG_SESSION_MESSAGES earlier messages costs at most this many times a fresh session's. */
export const LONG_SESSION_RATIO_TARGET = 1.2;
export const LONG_SESSION_MESSAGES = 10_000;

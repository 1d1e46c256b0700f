import type { WorkerOptions } from 'bullmq';
import { TURN_JOB_OPTIONS } from '@switchboard/queue';
import { loadWorkerEnv } from './worker-env';

// Every tuning constant of the worker in one place (queue locks, lease timing, replays, caches).

/**
 * BullMQ options of the turn worker. A turn can take minutes (six model rounds plus tools); BullMQ
 * renews the job lock every half lockDuration for as long as the turn runs, so the lock only has
 * to outlive a renewal gap, and a crashed process's job comes back within ~lockDuration +
 * stalledInterval (4 s + 1 s by default: failover in seconds, issue #24). A job may stall twice
 * before it fails; a job that stalled out gets a fresh one at once (STALL_RESWEEPS).
 * `autorun: false`: the processor starts taking jobs only once the whole app is up.
 */
export function turnWorkerOptions(source: NodeJS.ProcessEnv = process.env): Partial<WorkerOptions> {
  // Read when the processor class is decorated, before main validates the environment: a bad
  // value falls back to the defaults here, and main then stops with the variable's name.
  let lockDuration = 4_000;
  let stalledInterval = 1_000;
  try {
    ({ TURN_LOCK_DURATION_MS: lockDuration, TURN_STALLED_INTERVAL_MS: stalledInterval } = loadWorkerEnv(source));
  } catch {
    // defaults above
  }
  return { autorun: false, lockDuration, stalledInterval, maxStalledCount: 2 };
}

/**
 * A job that finds its session's lease taken waits this long (plus jitter) and tries again.
 * A job younger than `freshMs` waits only `fresh`: the holder may be just releasing (its last
 * check for queued messages came before this message), and the full wait would land in the
 * message's latency. Older jobs belong to a burst the holder is draining: it answers their
 * messages and removes their jobs, so they come back only for a holder that stopped or died (whose
 * lease outlives them anyway: SESSION_LEASE_TTL_MS, 4 s by default). Each return costs a fetch, a
 * lease try and a move back (at 150–500 ms, jobs of a long burst came back eight times each).
 */
export const LEASE_BUSY_DELAY_MS = { min: 1_000, jitter: 500, freshMs: 100, fresh: { min: 15, jitter: 30 } };

/** How long a job that found the lease taken waits, by its age (ms since it was added). */
export function leaseBusyDelayMs(ageMs: number, random: () => number = Math.random): number {
  const d = ageMs < LEASE_BUSY_DELAY_MS.freshMs ? LEASE_BUSY_DELAY_MS.fresh : LEASE_BUSY_DELAY_MS;
  return d.min + Math.floor(random() * d.jitter);
}

/** Waits before a turn job tries again in place while the database is away (~16 s in all, then BullMQ's retry). */
export const DATABASE_BLIP_RETRY_MS = [250, 500, 1_000, 2_000, 4_000, 8_000];

/** Replays of one message after version conflicts before the job gives up and retries later. */
export const MAX_CONFLICT_REPLAYS = 3;

/** Stored messages (user and assistant) the engine sees as history, newest kept. */
export const HISTORY_LIMIT = 50;

/** Built engine agents kept per process, keyed by agent and version, and for how long. */
export const AGENT_CACHE_SIZE = 200;
export const AGENT_CACHE_TTL_MS = 5 * 60_000;

/** Stale queued messages the sweeper looks at per sweep (oldest first). */
export const SWEEP_BATCH = 500;

/** Stale messages whose jobs the sweeper checks at once (their Redis or Postgres calls pipelined). */
export const SWEEP_PARALLEL = 32;

/**
 * The sweeper's jobs retry like every turn job (TURN_JOB_OPTIONS: ~5 s, 10 s, 20 s, 40 s) before
 * they fail for good; a failed one is the message's dead letter: kept a week, visible in the
 * queue, retried by hand. Completed ones go after an hour (the sweeper removes them anyway).
 */
export const SWEEP_JOB_OPTIONS = { ...TURN_JOB_OPTIONS, removeOnComplete: { age: 3600 } } as const;

/**
 * Fresh jobs a message gets after its job stalled out (maxStalledCount + 1 = 3 worker deaths
 * with it in flight), so only a message in flight in 12 dying workers is dead-lettered for it.
 */
export const STALL_RESWEEPS = 3;

/**
 * Delays before a turn job retries after a transient provider failure of the understand call
 * (the engine throws it: nothing ran, the input is retried). The provider's Retry-After wins
 * when it is longer. The last rung repeats.
 */
export const PROVIDER_RETRY_LADDER_MS = [1_000, 5_000, 15_000, 60_000, 300_000];

/**
 * `merge` double texting: a burst is answered once no message arrived for the agent's merge
 * window (default below); a steady stream is cut after this many windows so it still gets answers.
 */
export const DEFAULT_MERGE_WINDOW_MS = 2_000;
export const MERGE_MAX_WAIT_WINDOWS = 5;
/** Most messages one merged turn takes. */
export const MERGE_MAX_MESSAGES = 20;

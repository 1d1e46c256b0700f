import type { WorkerOptions } from 'bullmq';

// Every tuning constant of the worker in one place (queue locks, lease timing, replays, caches).

/**
 * BullMQ options of the turn worker. A turn can take minutes (six model rounds plus tools), so the
 * job lock is long and renewed by BullMQ every half of it; a job whose lock lapses (crashed
 * process) is moved back to wait by the stalled check and may stall twice before it fails.
 * `autorun: false`: the processor starts taking jobs only once the whole app is up.
 */
export const TURN_WORKER_OPTIONS: Partial<WorkerOptions> = {
  autorun: false,
  lockDuration: 120_000,
  stalledInterval: 30_000,
  maxStalledCount: 2,
};

/** A job that finds its session's lease taken waits this long (plus jitter) and tries again. */
export const LEASE_BUSY_DELAY_MS = { min: 150, jitter: 350 };

/** Replays of one message after version conflicts before the job gives up and retries later. */
export const MAX_CONFLICT_REPLAYS = 3;

/** Stored messages (user and assistant) the engine sees as history, newest kept. */
export const HISTORY_LIMIT = 50;

/** Built engine agents kept per process, keyed by agent and version. */
export const AGENT_CACHE_SIZE = 200;

/** Interactive commit transaction limits (ms). */
export const COMMIT_TRANSACTION = { maxWait: 5_000, timeout: 15_000 };

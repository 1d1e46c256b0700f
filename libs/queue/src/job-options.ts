import type { JobsOptions } from 'bullmq';

/**
 * Options of every `{turns}` job (API ingest, worker sweeper and wakes), so retries behave the
 * same whoever added the job. An exception in our own code (not a busy lease, not a provider
 * outage: those re-delay the job without spending an attempt) fails the attempt; BullMQ retries
 * after ~5 s, 10 s, 20 s, 40 s, then the job stays failed — the dead letter — for a week, and the
 * message stays `queued` in Postgres (its customer gets the fallback message once meanwhile).
 * Finished jobs are kept a day so a re-add of the same job id stays a no-op during the window a
 * retry is likely.
 */
export const TURN_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 5_000 },
  removeOnComplete: { age: 24 * 3600, count: 50_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const satisfies JobsOptions;

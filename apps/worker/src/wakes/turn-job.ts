import type { TurnJobData } from '@switchboard/queue';

/**
 * A `{turns}` job as the worker reads it: the API's TurnJobData, plus what the worker itself
 * adds — a wake (a scheduled retry of a deferred step, keyed by the engine's wake key) and the
 * count of transient provider retries so far.
 */
export type TurnJobPayload = TurnJobData & {
  wake?: string;
  /** Epoch ms the wake was due. */
  wakeAt?: number;
  providerRetries?: number;
};

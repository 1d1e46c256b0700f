import { EnvValidationError, loadEnv, type Env } from '@switchboard/config';
import { z } from 'zod';

// Variables only the worker reads. Shared ones (DATABASE_URL, REDIS_URL, QUEUE_PREFIX,
// WORKER_CONCURRENCY, LOG_LEVEL, provider keys, OUTBOUND_ALLOWED_HOSTS) come from @switchboard/config's loadEnv.
const workerOnlySchema = z.object({
  /**
   * How long a session lease lives without renewal; renewed every third of it while a turn runs.
   * Short, so a killed worker's sessions are free again within seconds (docs/running.md, failover).
   */
  SESSION_LEASE_TTL_MS: z.coerce.number().int().min(1000).max(600_000).default(4_000),
  /**
   * BullMQ job lock of a turn job; renewed every half of it while the turn runs, so a crashed
   * worker's jobs come back within about this plus TURN_STALLED_INTERVAL_MS.
   */
  TURN_LOCK_DURATION_MS: z.coerce.number().int().min(2_000).max(600_000).default(4_000),
  /** How often each worker checks for stalled jobs (whose lock lapsed). */
  TURN_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).max(600_000).default(1_000),
  /** Largest HTTP tool response read; beyond it the call fails. */
  HTTP_TOOL_MAX_RESPONSE_BYTES: z.coerce.number().int().min(1024).max(50_000_000).default(1_000_000),
  /** Longest HTTP tool result the model reads; the engine cuts the rest with a note. */
  HTTP_TOOL_MAX_RESULT_CHARS: z.coerce.number().int().min(100).max(1_000_000).default(8_000),
  /** Default time limit of a code tool's handler (an @AgentTool's `timeoutMs` overrides it). */
  TOOL_TIMEOUT_MS: z.coerce.number().int().min(10).max(600_000).default(10_000),
  /** How often each worker looks for webhook deliveries that are due. */
  DELIVERY_POLL_MS: z.coerce.number().int().min(50).max(3_600_000).default(1_000),
  /** First retry delay of a failed webhook delivery; it doubles per attempt (capped at 10 minutes). */
  DELIVERY_BACKOFF_MS: z.coerce.number().int().min(10).max(600_000).default(2_000),
  /** After this many attempts, or this long after the reply, a delivery is dead-lettered. */
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(12),
  DELIVERY_MAX_AGE_MS: z.coerce.number().int().min(1_000).max(7 * 86_400_000).default(86_400_000),
  /** How often one worker (at a time) looks for accepted messages that have no live job. */
  SWEEPER_INTERVAL_MS: z.coerce.number().int().min(200).max(3_600_000).default(30_000),
  /** A message still queued this long after it was accepted is re-enqueued by the sweeper. */
  SWEEPER_GRACE_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /** How often one worker (at a time) folds past days' usage roll-up slots into one row (UsageSlotFolder). */
  USAGE_FOLD_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(3_600_000),
  /** Port of the worker's Prometheus endpoint (GET /metrics); 0 turns it off. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /** Address it listens on: loopback unless the scraper is on another host (then set METRICS_TOKEN too). */
  WORKER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

export type WorkerEnv = Env & z.infer<typeof workerOnlySchema>;

/** Validates the worker's environment once at start-up; throws EnvValidationError naming each bad variable. */
export function loadWorkerEnv(source: NodeJS.ProcessEnv = process.env): WorkerEnv {
  const shared = loadEnv(source);
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const own = workerOnlySchema.safeParse(cleaned);
  if (!own.success) {
    throw new EnvValidationError(
      own.error.issues.map((i) => ({ variable: i.path.join('.'), message: i.message })),
    );
  }
  return { ...shared, ...own.data };
}

/** Injection token of the validated WorkerEnv. */
export const WORKER_ENV = Symbol('WORKER_ENV');

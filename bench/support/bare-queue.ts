import { createPostgresBackend, Queue, withBackend, Worker, type ConnectionOptions, type Processor, type WorkerOptions } from 'bullmq';
import { bullSchema, redisConnection } from '@switchboard/queue';

// The baselines' BullMQ, on either backend the platform runs on: Redis (key prefix) or BullMQ's
// Postgres backend (its tables in a schema named after the prefix, in the bench database), made
// the way libs/queue makes the platform's, so a baseline and the platform compare like for like.

export type BareBackend = 'redis' | 'postgres';

export interface BareQueueTarget {
  backend: BareBackend;
  redisUrl: string;
  /** The bench database (Postgres backend only). */
  databaseUrl: string;
  prefix: string;
}

function connection(t: BareQueueTarget): ConnectionOptions {
  if (t.backend === 'postgres') {
    // Pool options, not Redis ones: the Postgres backend tells them apart (see libs/queue's bullConnection).
    return { connectionString: t.databaseUrl, schema: bullSchema(t.prefix), migrate: true, max: 4 } as unknown as ConnectionOptions;
  }
  return redisConnection(t.redisUrl);
}

function classes(t: BareQueueTarget): { Queue: typeof Queue; Worker: typeof Worker } {
  return t.backend === 'postgres' ? (withBackend(createPostgresBackend) as unknown as { Queue: typeof Queue; Worker: typeof Worker }) : { Queue, Worker };
}

export function bareQueue(name: string, t: BareQueueTarget): Queue {
  const { Queue: Q } = classes(t);
  return new Q(name, { prefix: t.prefix, connection: connection(t) });
}

export function bareWorker(name: string, t: BareQueueTarget, processor: Processor, opts: Omit<WorkerOptions, 'connection' | 'prefix'>): Worker {
  const { Worker: W } = classes(t);
  return new W(name, processor, { ...opts, prefix: t.prefix, connection: connection(t) });
}

/** The target a baseline child process was started with (BARE_* variables; see bareTargetEnv). */
export function bareTargetFromEnv(): BareQueueTarget {
  return {
    backend: process.env.BARE_BACKEND === 'postgres' ? 'postgres' : 'redis',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    databaseUrl: process.env.BARE_DATABASE_URL ?? '',
    prefix: process.env.BARE_PREFIX ?? 'bare',
  };
}

export function bareTargetEnv(t: BareQueueTarget): Record<string, string> {
  return { BARE_BACKEND: t.backend, REDIS_URL: t.redisUrl, BARE_DATABASE_URL: t.databaseUrl, BARE_PREFIX: t.prefix };
}

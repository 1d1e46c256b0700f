import { createHash } from 'node:crypto';
import { DEFAULT_QUEUE_PG_POOL_MAX, queueBackend, type Env } from '@switchboard/config';
import {
  createPostgresBackend,
  Queue,
  QueueEvents,
  setDefaultBackendFactory,
  withBackend,
  type ConnectionOptions,
  type PostgresPoolConfig,
} from 'bullmq';
import { redisConnection, type RedisClientOptions } from '../connection';

// QUEUE_PG_POOL_MAX is optional so an Env built by hand (tests, benches) needs only the four.
type BullEnv = Pick<Env, 'QUEUE_BACKEND' | 'REDIS_URL' | 'DATABASE_URL' | 'QUEUE_PREFIX'> & Partial<Pick<Env, 'QUEUE_PG_POOL_MAX'>>;

/**
 * The Postgres schema BullMQ's Postgres backend keeps its tables in. It stands in for the Redis
 * key prefix (which that backend ignores), so deployments and test runs sharing one database
 * keep separate queues. Identifier-safe, at most 63 bytes.
 */
export function bullSchema(prefix: string): string {
  const name = `bullmq_${prefix.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
  if (name.length <= 63) return name;
  return `${name.slice(0, 54)}_${createHash('sha256').update(prefix).digest('hex').slice(0, 8)}`;
}

/** The Postgres connection of BullMQ's Postgres backend: DATABASE_URL, our schema, migrated on first use. */
export function bullPostgresConnection(env: BullEnv): PostgresPoolConfig {
  // migrate: BullMQ creates or upgrades its own tables (under an advisory lock, so the API and
  // every worker may start at once); a small pool, as the LISTEN client is a connection of its own.
  return { connectionString: env.DATABASE_URL, schema: bullSchema(env.QUEUE_PREFIX), migrate: true, max: env.QUEUE_PG_POOL_MAX ?? DEFAULT_QUEUE_PG_POOL_MAX };
}

/**
 * Connection options for a Queue or Worker of the chosen backend. On Postgres they are pool
 * options, not Redis ones; BullMQ's classes accept both, and the backend factory (see
 * useBullBackend) tells them apart, so the Redis-typed result is only a type-level cast.
 */
export function bullConnection(env: BullEnv): ConnectionOptions {
  if (queueBackend(env) === 'postgres') return bullPostgresConnection(env) as unknown as ConnectionOptions;
  return redisConnection(env.REDIS_URL);
}

/**
 * Points every Queue, Worker and QueueEvents this process creates afterwards at the chosen
 * backend. Called once at start-up, before any of them exists: @nestjs/bullmq builds them
 * itself and offers no way to pass a backend factory.
 */
export function useBullBackend(env: Pick<Env, 'QUEUE_BACKEND'>): void {
  setDefaultBackendFactory(queueBackend(env) === 'postgres' ? createPostgresBackend : undefined);
}

/**
 * A Queue on the chosen backend, without touching the process-wide default. Typed as the Redis
 * Queue: both backends offer the same methods, only the class's type parameters differ.
 * `redisOptions` adds to the Redis connection (e.g. no offline queue) and is ignored on Postgres.
 */
export function createBullQueue<T, R = unknown>(name: string, env: BullEnv, redisOptions: RedisClientOptions = {}): Queue<T, R> {
  if (queueBackend(env) === 'postgres') {
    const { Queue: PostgresQueue } = withBackend(createPostgresBackend);
    return new PostgresQueue<T, R>(name, { connection: bullPostgresConnection(env) }) as unknown as Queue<T, R>;
  }
  return new Queue<T, R>(name, { prefix: env.QUEUE_PREFIX, connection: redisConnection(env.REDIS_URL, redisOptions) });
}

/** QueueEvents on the chosen backend (for job.waitUntilFinished); typed as the Redis one, like createBullQueue. */
export function createBullQueueEvents(name: string, env: BullEnv): QueueEvents {
  if (queueBackend(env) === 'postgres') {
    const { QueueEvents: PostgresQueueEvents } = withBackend(createPostgresBackend);
    return new PostgresQueueEvents(name, { connection: bullPostgresConnection(env) }) as unknown as QueueEvents;
  }
  return new QueueEvents(name, { prefix: env.QUEUE_PREFIX, connection: redisConnection(env.REDIS_URL) });
}

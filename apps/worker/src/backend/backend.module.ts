import type { Type } from '@nestjs/common';
import { queueBackend } from '@switchboard/config';
import { useBullBackend } from '@switchboard/queue';
import type { WorkerEnv } from '../config/worker-env';
import { RedisModule } from '../redis/redis.module';
import { PostgresBackendModule } from './postgres-backend.module';

/**
 * Chooses the worker's backend once at start-up (QUEUE_BACKEND; see loadEnv; main.ts logs it): the
 * queue (BullMQ's Redis or Postgres backend), session leases, the sweeper's lock and session
 * events all follow it. Returns the module that provides LEASE_STORE and SESSION_EVENT_PUBLISHER.
 */
export function backendModule(env: WorkerEnv): Type {
  useBullBackend(env);
  return queueBackend(env) === 'postgres' ? PostgresBackendModule : RedisModule;
}

import { Global, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { ensureRuntimeSchema } from '@switchboard/queue';
import { CountingPool } from '@switchboard/db';
import type { Pool } from 'pg';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { PostgresLeaseStore } from '../lease/postgres-lease-store';
import { LEASE_STORE, RUNTIME_POOL, SESSION_EVENT_PUBLISHER } from './backend.tokens';
import { PostgresSessionEventPublisher } from './postgres-session-event-publisher';

class PoolCloser implements OnModuleDestroy {
  constructor(@Inject(RUNTIME_POOL) private readonly pool: Pool) {}

  // Global modules are destroyed last, so running turns can still release leases and publish.
  async onModuleDestroy(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

/** The worker's Postgres backend (Postgres mode): the twins of RedisModule on DATABASE_URL. */
@Global()
@Module({
  providers: [
    {
      provide: RUNTIME_POOL,
      inject: [WORKER_ENV],
      useFactory: async (env: WorkerEnv) => {
        // The worker's own small pool for leases, locks and NOTIFY (Prisma's pool stays for the
        // app's rows), counted in switchboard_pg_round_trips_total as pool="runtime".
        const pool = new CountingPool({ connectionString: env.DATABASE_URL, max: env.QUEUE_PG_POOL_MAX });
        pool.on('error', () => undefined); // an idle client dropped; the next query reconnects
        await ensureRuntimeSchema(pool);
        return pool;
      },
    },
    { provide: LEASE_STORE, inject: [RUNTIME_POOL], useFactory: (pool: Pool) => new PostgresLeaseStore(pool) },
    { provide: SESSION_EVENT_PUBLISHER, inject: [RUNTIME_POOL], useFactory: (pool: Pool) => new PostgresSessionEventPublisher(pool) },
    PoolCloser,
  ],
  exports: [LEASE_STORE, SESSION_EVENT_PUBLISHER, RUNTIME_POOL],
})
export class PostgresBackendModule {}

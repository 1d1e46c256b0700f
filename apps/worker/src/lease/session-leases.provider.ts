import type { Provider } from '@nestjs/common';
import { LEASE_STORE } from '../backend/backend.tokens';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import type { LeaseStore } from './lease-store';
import { SessionLeases } from './session-lease';

/** SessionLeases on the backend's LeaseStore, under the deployment's prefix and lease TTL. */
export const sessionLeasesProvider: Provider = {
  provide: SessionLeases,
  inject: [LEASE_STORE, WORKER_ENV],
  useFactory: (store: LeaseStore, env: WorkerEnv) => new SessionLeases(store, { prefix: env.QUEUE_PREFIX, ttlMs: env.SESSION_LEASE_TTL_MS }),
};

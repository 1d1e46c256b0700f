import { Counter, type Registry } from 'prom-client';
import type { CountingPool } from './counting-pool';
import type { PrismaService } from './prisma.service';

export const ROUND_TRIP_METRIC = 'switchboard_pg_round_trips_total';

/**
 * `switchboard_pg_round_trips_total` on `registry`: the Postgres statements this process has sent,
 * read at scrape time from its pools (a process registers it once per registry). `pool="app"` is
 * its Prisma client's pool; `pool="runtime"` the pool Postgres mode keeps for what Redis holds
 * otherwise (leases, rate-limit counts, notifications), absent in Redis mode. BullMQ's own
 * statements are not counted.
 */
export function registerRoundTripMetric(registry: Registry, prisma: Pick<PrismaService, 'roundTrips'>, runtime?: Pick<CountingPool, 'sent'> | null): void {
  registry.removeSingleMetric(ROUND_TRIP_METRIC);
  new Counter({
    name: ROUND_TRIP_METRIC,
    help: 'Postgres round trips (statements sent, transactions included) by this process, by pool',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ pool: 'app' }, prisma.roundTrips);
      if (runtime) this.inc({ pool: 'runtime' }, runtime.sent);
    },
  });
}

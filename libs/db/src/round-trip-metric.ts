import { Counter, type Registry } from 'prom-client';
import type { PrismaService } from './prisma.service';

export const ROUND_TRIP_METRIC = 'switchboard_pg_round_trips_total';

/**
 * `switchboard_pg_round_trips_total` on `registry`: the Postgres statements this process's Prisma
 * client has sent, read at scrape time from its pool (a process registers it once per registry).
 */
export function registerRoundTripMetric(registry: Registry, prisma: Pick<PrismaService, 'roundTrips'>): void {
  registry.removeSingleMetric(ROUND_TRIP_METRIC);
  new Counter({
    name: ROUND_TRIP_METRIC,
    help: 'Postgres round trips (statements sent, transactions included) by this process',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(prisma.roundTrips);
    },
  });
}

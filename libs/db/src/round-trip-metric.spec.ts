import { Registry } from 'prom-client';
import { registerRoundTripMetric, ROUND_TRIP_METRIC } from './round-trip-metric';

// The hot path's round trips per message are read from this counter (the bench, the round-trips
// test). In Postgres mode a process also talks to Postgres through its runtime pool (leases,
// rate-limit counts, notifications): counted beside Prisma's, so Postgres mode's figures are whole.

async function samples(registry: Registry): Promise<{ labels: object; value: number }[]> {
  const metric = await registry.getSingleMetric(ROUND_TRIP_METRIC)!.get();
  return metric.values.map(({ labels, value }) => ({ labels, value }));
}

describe('switchboard_pg_round_trips_total', () => {
  it('counts the Prisma pool alone in Redis mode, read at each scrape', async () => {
    const registry = new Registry();
    const prisma = { roundTrips: 3 };
    registerRoundTripMetric(registry, prisma, null);
    expect(await samples(registry)).toEqual([{ labels: { pool: 'app' }, value: 3 }]);
    prisma.roundTrips = 8;
    expect(await samples(registry)).toEqual([{ labels: { pool: 'app' }, value: 8 }]);
  });

  it('counts the runtime pool beside it in Postgres mode', async () => {
    const registry = new Registry();
    registerRoundTripMetric(registry, { roundTrips: 5 }, { sent: 2 });
    expect(await samples(registry)).toEqual([
      { labels: { pool: 'app' }, value: 5 },
      { labels: { pool: 'runtime' }, value: 2 },
    ]);
  });
});

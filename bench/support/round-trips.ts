// Postgres round trips per message, from the apps' own Prometheus counter
// (switchboard_pg_round_trips_total, every label summed) read on the API's and each worker's
// metrics port before and after a phase. An app that does not export the counter makes the figure
// "not exported"; one whose metrics port did not answer, "metrics unreachable".

export const ROUND_TRIPS_METRIC = 'switchboard_pg_round_trips_total';

/** A count, or why there is none. */
export type RoundTrips = number | 'not exported' | 'metrics unreachable';

/** The counter summed over the given /metrics URLs. */
export async function readRoundTrips(metricsUrls: string[]): Promise<RoundTrips> {
  if (metricsUrls.length === 0) return 'metrics unreachable';
  let total = 0;
  for (const url of metricsUrls) {
    const value = await readCounter(url, ROUND_TRIPS_METRIC);
    if (typeof value !== 'number') return value;
    total += value;
  }
  return total;
}

async function readCounter(url: string, name: string): Promise<RoundTrips> {
  let text: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    if (res.status !== 200) return 'metrics unreachable';
    text = await res.text();
  } catch {
    return 'metrics unreachable';
  }
  return sumSamples(text, name) ?? 'not exported';
}

/** Sums every sample of `name` in a Prometheus text exposition (with or without labels); undefined when absent. */
export function sumSamples(text: string, name: string): number | undefined {
  let found = false;
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== '{' && line[name.length] !== ' ')) continue;
    const rest = line[name.length] === '{' ? line.slice(line.lastIndexOf('}') + 1) : line.slice(name.length);
    const value = Number(rest.trim().split(/\s+/)[0]);
    if (Number.isFinite(value)) {
      sum += value;
      found = true;
    }
  }
  return found ? sum : undefined;
}

export interface RoundTripCounter {
  /** Round trips per unit of work since the counter was started, or why there is no count. */
  perUnit(units: number): Promise<RoundTrips>;
  /** The round trips since the counter was started and the seconds that took. */
  counted(): Promise<{ trips: RoundTrips; seconds: number }>;
}

/** Reads the counter now; the returned handle reads it again and divides the difference. */
export async function startRoundTripCount(metricsUrls: string[]): Promise<RoundTripCounter> {
  const before = await readRoundTrips(metricsUrls);
  const startedAt = Date.now();
  const counted = async () => {
    const after = await readRoundTrips(metricsUrls);
    const seconds = (Date.now() - startedAt) / 1000;
    if (typeof before !== 'number') return { trips: before, seconds };
    if (typeof after !== 'number') return { trips: after, seconds };
    return { trips: after - before, seconds };
  };
  return {
    counted,
    async perUnit(units: number) {
      const { trips } = await counted();
      return typeof trips === 'number' ? trips / Math.max(1, units) : trips;
    },
  };
}

/**
 * Round trips per unit with the processes' idle rate (idleRoundTripRate) times the time counted
 * taken off: what the units cost, not what the clock did meanwhile.
 */
export function perUnitNet(counted: { trips: RoundTrips; seconds: number }, units: number, idlePerSec: RoundTrips): RoundTrips {
  if (typeof counted.trips !== 'number') return counted.trips;
  if (typeof idlePerSec !== 'number') return idlePerSec;
  return Math.max(0, counted.trips - idlePerSec * counted.seconds) / Math.max(1, units);
}

/**
 * The processes' round trips per second while they have nothing to do: the worker's delivery
 * poller (one query a second per process) and sweeper. They run by the clock, whatever the load.
 */
export async function idleRoundTripRate(metricsUrls: string[], ms: number): Promise<RoundTrips> {
  const counter = await startRoundTripCount(metricsUrls);
  await new Promise((r) => setTimeout(r, ms));
  const { trips, seconds } = await counter.counted();
  return typeof trips === 'number' ? trips / seconds : trips;
}

/**
 * Arrival offsets (ms from the start) of `count` events at `ratePerSec` on average, with
 * exponential gaps (a Poisson process): real traffic bunches, and an evenly spaced schedule
 * would flatter the latency figures.
 */
export function poissonSchedule(count: number, ratePerSec: number, random: () => number = Math.random): number[] {
  const out: number[] = [];
  let t = 0;
  for (let i = 0; i < count; i++) {
    out.push(t);
    t += (-Math.log(1 - random()) / ratePerSec) * 1000;
  }
  return out;
}

/** Runs `fire(i)` at each offset of the schedule without waiting for earlier ones to finish (open loop). */
export async function runOpenLoop(schedule: number[], fire: (i: number) => Promise<void>): Promise<void> {
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < schedule.length; i++) {
    const wait = schedule[i] - (performance.now() - started);
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(fire(i));
  }
  await Promise.all(pending);
}

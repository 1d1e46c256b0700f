import type { Logger } from '@nestjs/common';
import { PeriodicTask } from './periodic-task';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PeriodicTask', () => {
  it('runs one run at a time, logs a failed run and goes on, and stop() waits for the run in progress', async () => {
    const errors: unknown[] = [];
    const logger = { error: (m: unknown) => errors.push(m) } as unknown as Logger;
    let runs = 0;
    let active = 0;
    let maxActive = 0;
    let finished = 0;
    const task = new PeriodicTask(logger, 'round failed', async () => {
      runs++;
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(30); // longer than the interval: overlapping ticks are skipped
      active--;
      finished++;
      if (runs === 1) throw new Error('boom');
    });
    task.start(5);
    await sleep(120);
    await task.stop();
    const afterStop = runs;
    await sleep(40);

    expect(runs).toBeGreaterThanOrEqual(2);
    expect(maxActive).toBe(1);
    expect(finished).toBe(runs); // stop() waited for the last run
    expect(runs).toBe(afterStop); // and no run started after it
    expect(errors[0]).toEqual({ msg: 'round failed', error: 'boom' });
  });
});

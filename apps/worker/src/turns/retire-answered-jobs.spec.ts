import type { Queue } from 'bullmq';
import { turnJobId, type TurnJobData } from '@switchboard/queue';
import { LOCKED_JOB_RETRIES_MS, REMEMBERED_ANSWERS, RetireAnsweredJobs } from './retire-answered-jobs';

/** A queue whose remove() answers 1 (removed) or 0 (locked: a worker holds the job) per job id. */
function queueWith(locked: Set<string> = new Set()) {
  const remove = jest.fn(async (jobId: string) => (locked.has(jobId) ? 0 : 1));
  return { queue: { remove } as unknown as Queue<TurnJobData>, remove };
}

describe('RetireAnsweredJobs', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('removes the answered messages’ jobs and remembers the messages as answered', async () => {
    const { queue, remove } = queueWith();
    const retire = new RetireAnsweredJobs(queue);

    await expect(retire.execute(['m1', 'm2'])).resolves.toBe(2);

    expect(remove.mock.calls.map(([id]) => id)).toEqual([turnJobId('m1'), turnJobId('m2')]);
    expect(retire.wasAnswered('m1')).toBe(true);
    expect(retire.wasAnswered('m2')).toBe(true);
    expect(retire.wasAnswered('m3')).toBe(false);
  });

  it('tries a locked job again a moment later, and remembers its message at once', async () => {
    const locked = new Set([turnJobId('m2')]);
    const { queue, remove } = queueWith(locked);
    const retire = new RetireAnsweredJobs(queue);

    await expect(retire.execute(['m1', 'm2'])).resolves.toBe(1);
    // The job that comes up meanwhile (it held the lock) ends without a lease or a read.
    expect(retire.wasAnswered('m2')).toBe(true);

    // Still locked at the first retry, free at the second; then no more tries.
    await jest.advanceTimersByTimeAsync(LOCKED_JOB_RETRIES_MS[0]);
    expect(remove).toHaveBeenCalledTimes(3);
    locked.clear();
    await jest.advanceTimersByTimeAsync(LOCKED_JOB_RETRIES_MS[1] - LOCKED_JOB_RETRIES_MS[0]);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(remove.mock.calls.map(([id]) => id)).toEqual([turnJobId('m1'), turnJobId('m2'), turnJobId('m2'), turnJobId('m2')]);
  });

  it('gives up on a job still locked after its last retry (it then finds its message answered)', async () => {
    const { queue, remove } = queueWith(new Set([turnJobId('m1')]));
    await new RetireAnsweredJobs(queue).execute(['m1']);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(remove).toHaveBeenCalledTimes(1 + LOCKED_JOB_RETRIES_MS.length);
  });

  it('never rejects when the queue is away: the jobs then come up and find their message answered', async () => {
    const queue = { remove: jest.fn(async () => Promise.reject(new Error('Connection is closed.'))) } as unknown as Queue<TurnJobData>;
    const retire = new RetireAnsweredJobs(queue);
    await expect(retire.execute(['m1'])).resolves.toBe(0);
    expect(retire.wasAnswered('m1')).toBe(true);
  });

  it('keeps at most REMEMBERED_ANSWERS ids, forgetting the oldest first', async () => {
    const retire = new RetireAnsweredJobs(queueWith().queue);
    const ids = Array.from({ length: REMEMBERED_ANSWERS + 2 }, (_, i) => `m${i}`);
    await retire.execute(ids);
    expect(retire.wasAnswered('m0')).toBe(false);
    expect(retire.wasAnswered('m1')).toBe(false);
    expect(retire.wasAnswered('m2')).toBe(true);
    expect(retire.wasAnswered(`m${REMEMBERED_ANSWERS + 1}`)).toBe(true);
  });
});

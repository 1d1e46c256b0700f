import { ProviderError } from '@falai/agent';
import { Prisma } from '@switchboard/db';
import { DelayedError, type Job, type Queue } from 'bullmq';
import type { TurnJobData } from '@switchboard/queue';
import type { WorkerEnv } from '../config/worker-env';
import type { SessionLeases } from '../lease/session-lease';
import type { FlowInputLoader } from '../wakes/flow-input-loader';
import type { DrainSession } from './drain-session';
import type { RecordDeadLetter } from './record-dead-letter';
import type { RecordUnderstandDeferral } from './record-understand-deferral';
import type { RetireAnsweredJobs } from './retire-answered-jobs';
import type { RecordProviderBackoff } from './provider-backoff';
import type { RunTurn } from './run-turn';
import type { SessionEvents } from './session-events';
import { SessionBackoffError, UnderstandDeferredError } from './turn-errors';
import { TurnProcessor } from './turn.processor';

// A model down for now puts the job back delayed, and BullMQ takes the DelayedError it throws
// as "moved, not failed". It must reach BullMQ as the rejection of process() itself: thrown
// while the lease is still being released (a round trip), a bare `return` of the rejecting
// promise left it unhandled for that long, and Node ended the worker (issue #17).

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TurnProcessor over stand-ins: only what a test names is real enough to be called. */
function processorOf(parts: {
  leases: unknown;
  drain: unknown;
  events?: unknown;
  deferrals?: unknown;
  deadLetters?: unknown;
  retire?: unknown;
  backoff?: unknown;
  queue?: unknown;
}): TurnProcessor {
  return new TurnProcessor(
    { WORKER_CONCURRENCY: 1 } as WorkerEnv,
    parts.leases as SessionLeases,
    parts.drain as DrainSession,
    {} as RunTurn,
    {} as FlowInputLoader,
    (parts.events ?? {}) as SessionEvents,
    (parts.deferrals ?? {}) as RecordUnderstandDeferral,
    (parts.deadLetters ?? {}) as RecordDeadLetter,
    (parts.retire ?? { execute: async () => 0, wasAnswered: () => false }) as RetireAnsweredJobs,
    (parts.backoff ?? { execute: async () => undefined }) as RecordProviderBackoff,
    (parts.queue ?? {}) as Queue<TurnJobData>,
  );
}

function processorWith(drainError: Error) {
  const events: string[] = [];
  const lease = {
    isHeld: true,
    release: async () => {
      events.push('release started');
      await sleep(30);
      events.push('released');
    },
  };
  const drain = {
    take: async () => ({ lease }),
    isSettled: async () => false,
    queuedIds: async () => ['m'],
    execute: async () => {
      throw drainError;
    },
  } as unknown as DrainSession;
  const sessionEvents = { publish: jest.fn(async () => undefined) } as unknown as SessionEvents;
  const deferrals = { execute: jest.fn(async () => [{ id: 'h', text: 'Um momento.' }]) };
  const backoff = { execute: jest.fn(async () => undefined) };
  const processor = processorOf({ leases: {}, drain, events: sessionEvents, deferrals, backoff });
  const job = {
    data: { tenantId: 't', sessionId: 's', messageId: 'm' },
    timestamp: Date.now(),
    updateData: jest.fn(async function (this: { data: unknown }, data: unknown) {
      this.data = data;
    }),
    moveToDelayed: jest.fn(async () => {
      await sleep(5);
      events.push('moved to delayed');
    }),
  } as unknown as Job<TurnJobData>;
  return { processor, job, events, deferrals, sessionEvents, backoff };
}

describe('TurnProcessor: a model down for now', () => {
  it.each(['overloaded', 'rate-limited', 'timeout', 'network', 'empty', 'unknown'] as const)(
    'puts the job back delayed (%s), and the DelayedError is settled before the lease release starts',
    async (kind) => {
      const { processor, job, events } = processorWith(new ProviderError({ kind, message: `model ${kind}` }));

      await expect(processor.process(job, 'token')).rejects.toBeInstanceOf(DelayedError);

      // The move (and the DelayedError after it) happened inside the try, awaited: the rejection
      // exists only as process()'s own. Released first, it waited 30 ms with no handler.
      expect(events).toEqual(['moved to delayed', 'release started', 'released']);
      expect(job.moveToDelayed).toHaveBeenCalledWith(expect.any(Number), 'token');
      expect(job.updateData).toHaveBeenCalledWith(expect.objectContaining({ providerRetries: 1 }));
    },
  );

  it("records an understand deferral of customer messages (its Turn row, the holding message) and tells the waiting listeners with that reply", async () => {
    const cause = new ProviderError({ kind: 'overloaded', message: 'HTTP 500' });
    const { processor, job, deferrals, sessionEvents } = processorWith(new UnderstandDeferredError(['m'], cause));

    await expect(processor.process(job, 'token')).rejects.toBeInstanceOf(DelayedError);

    expect(deferrals.execute).toHaveBeenCalledWith({ tenantId: 't', sessionId: 's', messageIds: ['m'], error: cause, retryAt: expect.any(Date) });
    expect(sessionEvents.publish).toHaveBeenCalledWith('s', { type: 'deferred', waiting: ['m'], retryAt: expect.any(String), replies: [{ id: 'h', text: 'Um momento.' }] });
  });

  it("sets the session's backoff at its rung on the ladder, so its other jobs wait for this one", async () => {
    const cause = new ProviderError({ kind: 'overloaded', message: 'HTTP 503' });
    // The session was deferred twice already (by its other jobs); this job never was.
    const { processor, job, backoff } = processorWith(new UnderstandDeferredError(['m'], cause, 2));
    const before = Date.now();

    await expect(processor.process(job, 'token')).rejects.toBeInstanceOf(DelayedError);

    // The third rung (15 s), not this job's first (1 s): the session climbs, whichever job calls.
    const [retryAt] = (job.moveToDelayed as jest.Mock).mock.calls[0] as [number];
    expect(retryAt - before).toBeGreaterThanOrEqual(15_000);
    expect(retryAt - before).toBeLessThan(16_000);
    expect(job.updateData).toHaveBeenCalledWith(expect.objectContaining({ providerRetries: 3 }));
    expect(backoff.execute).toHaveBeenCalledWith('t', 's', { retryAt, deferredAt: expect.any(Number), deferrals: 3 });
  });

  it("waits out the session's backoff without a model call or a deferral of its own, and tells its message's listeners", async () => {
    const retryAt = Date.now() + 5_000;
    const { processor, job, deferrals, sessionEvents, backoff } = processorWith(new SessionBackoffError(retryAt, 5_300));
    const before = Date.now();

    await expect(processor.process(job, 'token')).rejects.toBeInstanceOf(DelayedError);

    const [until] = (job.moveToDelayed as jest.Mock).mock.calls[0] as [number];
    expect(until - before).toBeGreaterThanOrEqual(5_300);
    expect(until - before).toBeLessThan(6_000);
    expect(job.updateData).not.toHaveBeenCalled();
    expect(deferrals.execute).not.toHaveBeenCalled();
    expect(backoff.execute).not.toHaveBeenCalled();
    expect(sessionEvents.publish).toHaveBeenCalledWith('s', { type: 'deferred', waiting: ['m'], retryAt: new Date(retryAt).toISOString(), replies: [] });
  });

  it('lets an error no wait can fix fail the job as itself, after releasing the lease', async () => {
    const bug = new TypeError('a bug');
    const { processor, job, events } = processorWith(bug);
    await expect(processor.process(job, 'token')).rejects.toBe(bug);
    expect(job.moveToDelayed).not.toHaveBeenCalled();
    expect(events).toEqual(['release started', 'released']);
  });
});

describe('TurnProcessor: the session lease is taken', () => {
  it.each([0, 1])('puts the job back delayed without a database read (stalled %i times): the holder removes it once it answers its message', async (stalledCounter) => {
    const drain = { take: jest.fn(async () => null), isSettled: jest.fn(async () => true), execute: jest.fn() };
    const processor = processorOf({ leases: {}, drain });
    const job = { data: { tenantId: 't', sessionId: 's', messageId: 'm' }, timestamp: Date.now(), stalledCounter, moveToDelayed: jest.fn(async () => undefined) } as unknown as Job<TurnJobData>;

    await expect(processor.process(job, 'token')).rejects.toBeInstanceOf(DelayedError);

    expect(job.moveToDelayed).toHaveBeenCalledWith(expect.any(Number), 'token');
    expect(drain.isSettled).not.toHaveBeenCalled();
    expect(drain.execute).not.toHaveBeenCalled();
  });
});

describe('TurnProcessor: a burst answered by one drain', () => {
  it('ends a job whose message a turn of this process answered, without the lease or a read', async () => {
    const take = jest.fn();
    const execute = jest.fn();
    const retire = { execute: jest.fn(), wasAnswered: jest.fn((id: string) => id === 'm2') };
    const processor = processorOf({ leases: {}, drain: { take, execute }, retire });
    const job = { data: { tenantId: 't', sessionId: 's', messageId: 'm2' }, timestamp: Date.now(), stalledCounter: 0 } as unknown as Job<TurnJobData>;

    await expect(processor.process(job, 'token')).resolves.toEqual({ status: 'already-answered' });

    expect(take).not.toHaveBeenCalled();
    expect(execute).not.toHaveBeenCalled();
  });

  it('takes the lease for a message this process did not answer', async () => {
    const execute = jest.fn().mockResolvedValue({ turns: 1, ownSettled: true, answered: ['m3'] });
    const retire = { execute: jest.fn(), wasAnswered: jest.fn(() => false) };
    const lease = { isHeld: true, release: jest.fn(async () => undefined) };
    const processor = processorOf({ leases: {}, drain: { take: async () => ({ lease }), execute }, retire });
    const job = { data: { tenantId: 't', sessionId: 's', messageId: 'm3' }, timestamp: Date.now(), stalledCounter: 0 } as unknown as Job<TurnJobData>;

    await expect(processor.process(job, 'token')).resolves.toEqual({ status: 'drained', turns: 1 });
    expect(retire.wasAnswered).toHaveBeenCalledWith('m3');
  });
});

describe('TurnProcessor: the claim read with the lease (Postgres mode)', () => {
  it('hands the drain the claim its lease was taken with, so the drain reads nothing before its first turn', async () => {
    const lease = { isHeld: true, release: jest.fn(async () => undefined) };
    const first = { ownSettled: false, next: { id: 'm', text: 'oi', createdAt: new Date() } };
    const take = jest.fn(async () => ({ lease, first }));
    const execute = jest.fn().mockResolvedValue({ turns: 1, ownSettled: true, answered: ['m'] });
    const processor = processorOf({ leases: {}, drain: { take, execute } });
    const job = { data: { tenantId: 't', sessionId: 's', messageId: 'm' }, timestamp: Date.now(), stalledCounter: 0 } as unknown as Job<TurnJobData>;

    await expect(processor.process(job, 'token')).resolves.toEqual({ status: 'drained', turns: 1 });

    expect(take).toHaveBeenCalledWith('t', 's', 'm');
    expect(execute).toHaveBeenCalledWith(expect.objectContaining({ lease, first, ownMessageId: 'm' }));
    expect(lease.release).toHaveBeenCalledTimes(1);
  });
});

describe('TurnProcessor: the database away for a moment', () => {
  it('tries the job again in place, keeping its place in the queue, and answers once the database is back', async () => {
    const lost = new Prisma.PrismaClientKnownRequestError('Server has closed the connection.', { code: 'P1017', clientVersion: 'test' });
    const execute = jest.fn().mockRejectedValueOnce(lost).mockRejectedValueOnce(lost).mockResolvedValue({ turns: 1, ownSettled: true, answered: ['m'] });
    const lease = { isHeld: true, release: jest.fn(async () => undefined) };
    const processor = processorOf({ leases: {}, drain: { take: async () => ({ lease }), execute } });
    const job = { data: { tenantId: 't', sessionId: 's', messageId: 'm' }, timestamp: Date.now(), stalledCounter: 0, moveToDelayed: jest.fn() } as unknown as Job<TurnJobData>;

    await expect(processor.process(job, 'token')).resolves.toEqual({ status: 'drained', turns: 1 });

    expect(execute).toHaveBeenCalledTimes(3);
    // Each try released the session's lease; nothing went back to the queue.
    expect(lease.release).toHaveBeenCalledTimes(3);
    expect(job.moveToDelayed).not.toHaveBeenCalled();
  });

  it('fails a query error at once, without waiting', async () => {
    const bad = new Prisma.PrismaClientKnownRequestError('Unique constraint failed', { code: 'P2002', clientVersion: 'test' });
    const execute = jest.fn().mockRejectedValue(bad);
    const processor = processorOf({ leases: {}, drain: { take: async () => ({ lease: { isHeld: true, release: async () => undefined } }), execute } });
    const job = { data: { tenantId: 't', sessionId: 's', messageId: 'm' }, timestamp: Date.now(), stalledCounter: 0 } as unknown as Job<TurnJobData>;
    await expect(processor.process(job, 'token')).rejects.toBe(bad);
    expect(execute).toHaveBeenCalledTimes(1);
  });
});

describe('TurnProcessor: a job that failed for good', () => {
  const failedJob = (attemptsMade: number, failedReason = 'boom') =>
    ({ id: 'msg-m', data: { tenantId: 't', sessionId: 's', messageId: 'm', stallResweeps: 3 }, attemptsMade, opts: { attempts: 5 }, failedReason }) as unknown as Job<TurnJobData>;

  it('tells the customer on the last attempt only', () => {
    const execute = jest.fn(async () => true);
    const processor = processorOf({ leases: {}, drain: {}, deadLetters: { execute } });
    processor.onFailed(failedJob(4), new Error('boom'));
    expect(execute).not.toHaveBeenCalled();
    processor.onFailed(failedJob(5), new Error('boom'));
    expect(execute).toHaveBeenCalledWith(expect.objectContaining({ messageId: 'm' }), 'boom');
  });

  it('tells the customer of a job that stalled out past its fresh jobs', async () => {
    const execute = jest.fn(async () => true);
    const processor = processorOf({ leases: {}, drain: {}, deadLetters: { execute }, queue: { add: jest.fn() } });
    const reason = 'job stalled more than allowable limit';
    processor.onFailed(failedJob(1, reason), new Error(reason));
    await sleep(10);
    expect(execute).toHaveBeenCalledWith(expect.objectContaining({ messageId: 'm' }), reason);
  });
});

import { QUEUES, redisConnection, type TurnJobData } from '@switchboard/queue';
import { Queue } from 'bullmq';

/** A BullMQ handle on a turns queue (by default the run's, the shared API's prefix), to inspect jobs. */
export function turnsQueue(prefix = process.env.QUEUE_PREFIX): Queue<TurnJobData> {
  return new Queue<TurnJobData>(QUEUES.turns, {
    prefix,
    connection: redisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'),
  });
}

/** Every turn job of a session, in any state. */
export async function jobsOfSession(queue: Queue<TurnJobData>, sessionId: string) {
  const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized', 'waiting-children']);
  return jobs.filter((j) => j?.data?.sessionId === sessionId);
}

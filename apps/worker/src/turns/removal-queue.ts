import { getQueueToken } from '@nestjs/bullmq';
import type { OnModuleDestroy, Provider } from '@nestjs/common';
import { QUEUES, type RedisClient, type TurnJobData } from '@switchboard/queue';
import { Queue } from 'bullmq';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { REDIS } from '../redis/redis.module';

/** Injection token of the turns queue RetireAnsweredJobs removes answered messages' jobs from. */
export const REMOVAL_QUEUE = Symbol('REMOVAL_QUEUE');

/** What RetireAnsweredJobs needs of the queue. */
export type RemovalQueue = Pick<Queue<TurnJobData>, 'remove'>;

/**
 * On Redis, the turns queue on the worker's own auto-pipelined client (RedisModule): the removals
 * a commit sets off then leave in the socket write that carries the turn's `committed` event and
 * the lease's release, instead of one write each on BullMQ's connection (docs/hot-path.md, "What a
 * burst costs"). A Queue takes a shared client as is and never closes it; RedisModule does. In
 * Postgres mode (no REDIS), the module's own turns queue.
 */
class PipelinedTurnsQueue implements OnModuleDestroy {
  readonly queue: Queue<TurnJobData>;

  constructor(redis: RedisClient, prefix: string) {
    this.queue = new Queue<TurnJobData>(QUEUES.turns, { connection: redis, prefix });
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}

export const removalQueueProviders: Provider[] = [
  {
    provide: PipelinedTurnsQueue,
    inject: [WORKER_ENV, { token: REDIS, optional: true }],
    useFactory: (env: WorkerEnv, redis?: RedisClient) => (redis ? new PipelinedTurnsQueue(redis, env.QUEUE_PREFIX) : null),
  },
  {
    provide: REMOVAL_QUEUE,
    inject: [PipelinedTurnsQueue, getQueueToken(QUEUES.turns)],
    useFactory: (pipelined: PipelinedTurnsQueue | null, turns: Queue<TurnJobData>): RemovalQueue => pipelined?.queue ?? turns,
  },
];

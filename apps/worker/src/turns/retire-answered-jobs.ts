import { Injectable, Logger } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { QUEUES, turnJobId, type TurnJobData } from '@switchboard/queue';

/** When to try once more to remove a job that was locked: by then its worker, finding the lease busy, has put it back delayed. */
export const LOCKED_JOB_RETRY_MS = 50;

/**
 * Removes the waiting jobs of messages a drain answered (docs/hot-path.md, "What a burst costs").
 * A burst's later messages are answered by the job that held the lease; their own jobs would each
 * come up later only to find their message answered — a lease, a Postgres read and the job's
 * own moves for nothing. Best effort: a job another worker holds at that moment is locked; it is
 * tried once more shortly after, and if it is still held it ends as `already-answered`, as
 * before. A failed removal only leaves that same cheap job.
 */
@Injectable()
export class RetireAnsweredJobs {
  private readonly logger = new Logger(RetireAnsweredJobs.name);

  constructor(@InjectQueue(QUEUES.turns) private readonly queue: Queue<TurnJobData>) {}

  /** How many of the messages' jobs were removed at once (a locked one's second try is not awaited). */
  async execute(messageIds: readonly string[]): Promise<number> {
    if (messageIds.length === 0) return 0;
    const locked = await this.removeEach(messageIds);
    if (locked.length > 0) setTimeout(() => void this.removeEach(locked), LOCKED_JOB_RETRY_MS).unref();
    return messageIds.length - locked.length;
  }

  /** Removes each message's job; returns the messages whose job was locked (or whose removal failed). */
  private async removeEach(messageIds: readonly string[]): Promise<string[]> {
    const removed = await Promise.all(
      messageIds.map((id) =>
        this.queue.remove(turnJobId(id)).catch((err: unknown) => {
          this.logger.debug({ msg: 'answered message’s job not removed', messageId: id, error: (err as Error).message });
          return 0;
        }),
      ),
    );
    return messageIds.filter((_, i) => removed[i] !== 1);
  }
}

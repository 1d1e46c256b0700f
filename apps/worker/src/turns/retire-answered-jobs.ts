import { Inject, Injectable, Logger } from '@nestjs/common';
import { turnJobId } from '@switchboard/queue';
import { REMOVAL_QUEUE, type RemovalQueue } from './removal-queue';

/**
 * When to try again to remove a job that was locked (ms after the first try): by then its worker,
 * finding the lease busy, has put it back delayed. A fresh job comes back 15–45 ms later, so the
 * first retry comes before that; the second catches a job whose worker was slower to let go.
 */
export const LOCKED_JOB_RETRIES_MS = [10, 50];
/** How many answered message ids a process remembers (a few minutes of a busy worker's turns). */
export const REMEMBERED_ANSWERS = 20_000;

/**
 * Retires the jobs of messages a drain answered (docs/hot-path.md, "What a burst costs"). A
 * burst's later messages are answered by the job that holds the lease; their own jobs would each
 * come up later only to find their message answered — a lease, a Postgres read and the job's own
 * moves for nothing. Each answered message's job is removed right after its turn commits, while it
 * most likely waits delayed. Best effort: a job some worker holds at that moment is locked; it is
 * tried twice more shortly after. A job that still comes up here ends at once if this process
 * answered its message (remembered, never forgotten wrongly: an answered message stays answered);
 * one held by another process finds its message answered in its claim, as before. On Redis the
 * removals ride the write of the turn's own events (REMOVAL_QUEUE).
 */
@Injectable()
export class RetireAnsweredJobs {
  private readonly logger = new Logger(RetireAnsweredJobs.name);
  // Insertion-ordered: the oldest ids are dropped first once the bound is reached.
  private readonly answered = new Set<string>();

  constructor(@Inject(REMOVAL_QUEUE) private readonly queue: RemovalQueue) {}

  /** True when a turn of this process answered (or failed) the message: its job has nothing to do. */
  wasAnswered(messageId: string): boolean {
    return this.answered.has(messageId);
  }

  /**
   * Remembers the messages as answered and removes their jobs. Resolves with how many were removed
   * at once (a locked one's second try is not awaited); never rejects.
   */
  async execute(messageIds: readonly string[]): Promise<number> {
    if (messageIds.length === 0) return 0;
    this.remember(messageIds);
    const locked = await this.removeEach(messageIds);
    if (locked.length > 0) this.retryLocked(locked, 0);
    return messageIds.length - locked.length;
  }

  private retryLocked(messageIds: string[], attempt: number): void {
    const at = LOCKED_JOB_RETRIES_MS[attempt];
    if (at === undefined) return;
    const wait = at - (LOCKED_JOB_RETRIES_MS[attempt - 1] ?? 0);
    setTimeout(() => {
      void this.removeEach(messageIds).then((still) => still.length > 0 && this.retryLocked(still, attempt + 1));
    }, wait).unref();
  }

  private remember(messageIds: readonly string[]): void {
    for (const id of messageIds) this.answered.add(id);
    for (const oldest of this.answered) {
      if (this.answered.size <= REMEMBERED_ANSWERS) break;
      this.answered.delete(oldest);
    }
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

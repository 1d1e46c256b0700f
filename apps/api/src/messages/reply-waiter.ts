import type { PrismaService } from '@switchboard/db';
import { sessionChannel, type SessionEvent } from '@switchboard/queue';
import type { SessionEventsSubscriber } from '../redis/session-events.subscriber';
import { findReplies, type AnsweredMessage } from './find-replies';

/**
 * Waits for the commit that answers one inbound message. Created (subscribed) BEFORE the turn
 * job is enqueued so the worker cannot publish before we listen; `result` then checks Postgres
 * once for a reply committed earlier (a sweeper or an older job may have run it) and otherwise
 * waits for the session event. No polling.
 */
export class ReplyWaiter {
  private constructor(
    private readonly prisma: PrismaService,
    private readonly messageId: string,
    private readonly event: Promise<AnsweredMessage>,
    private readonly stopListening: () => void,
    private readonly released: AbortSignal,
  ) {}

  /** Subscribes to the session's channel; rejects if Redis cannot subscribe in time. */
  static async start(
    subscriber: SessionEventsSubscriber,
    prisma: PrismaService,
    messageId: string,
    sessionId: string,
  ): Promise<ReplyWaiter> {
    let resolve!: (a: AnsweredMessage) => void;
    const event = new Promise<AnsweredMessage>((r) => (resolve = r));
    const stop = await subscriber.listen(sessionChannel(sessionId), (e: SessionEvent) => {
      if (e.type === 'committed' && e.answered.includes(messageId)) resolve({ status: 'answered', replies: e.replies });
    });
    return new ReplyWaiter(prisma, messageId, event, stop, subscriber.released);
  }

  /** The answer, or null when `timeoutMs` passes (or the client goes away, or we shut down) first. */
  async result(timeoutMs: number, clientGone?: AbortSignal): Promise<AnsweredMessage | null> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const abort = clientGone ? AbortSignal.any([clientGone, this.released]) : this.released;
    try {
      if (abort.aborted) return null;
      const committed = await findReplies(this.prisma, this.messageId);
      if (committed) return committed;
      const gaveUp = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), timeoutMs);
        onAbort = () => resolve(null);
        abort.addEventListener('abort', onAbort, { once: true });
      });
      return await Promise.race([this.event, gaveUp]);
    } finally {
      clearTimeout(timer);
      if (onAbort) abort.removeEventListener('abort', onAbort);
      this.stopListening();
    }
  }

  /** Stops listening without waiting (e.g. the request failed before waiting). */
  cancel(): void {
    this.stopListening();
  }
}

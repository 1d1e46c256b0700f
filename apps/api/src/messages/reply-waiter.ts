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
      if (e.type === 'committed' && Array.isArray(e.answered) && e.answered.includes(messageId)) {
        const replies = Array.isArray(e.replies) ? e.replies : [];
        resolve({ status: e.status ?? 'answered', replies, ...(e.retryAt && { retryAt: e.retryAt }) });
      }
      // The understand call is down: the message waits for its retry (with the holding message the first time).
      if (e.type === 'deferred' && Array.isArray(e.waiting) && e.waiting.includes(messageId)) {
        resolve({ status: 'deferred', replies: Array.isArray(e.replies) ? e.replies : [], retryAt: e.retryAt });
      }
    });
    return new ReplyWaiter(prisma, messageId, event, stop, subscriber.released);
  }

  /** The answer, or null when `timeoutMs` passes (or the client goes away, or we shut down) first. */
  async result(timeoutMs: number, clientGone?: AbortSignal): Promise<AnsweredMessage | null> {
    // Both signals are watched directly: on Node 20 a listener on AbortSignal.any() of them
    // was seen not to fire when a source aborted later.
    const stops = [this.released, ...(clientGone ? [clientGone] : [])];
    let timer: NodeJS.Timeout | undefined;
    let giveUp: (() => void) | undefined;
    try {
      if (stops.some((s) => s.aborted)) return null;
      const committed = await findReplies(this.prisma, this.messageId);
      if (committed) return committed;
      const gaveUp = new Promise<null>((resolve) => {
        giveUp = () => resolve(null);
        timer = setTimeout(giveUp, timeoutMs);
        for (const s of stops) s.addEventListener('abort', giveUp, { once: true });
        if (stops.some((s) => s.aborted)) giveUp(); // aborted while Postgres was being read
      });
      return await Promise.race([this.event, gaveUp]);
    } finally {
      clearTimeout(timer);
      if (giveUp) for (const s of stops) s.removeEventListener('abort', giveUp);
      this.stopListening();
    }
  }
}

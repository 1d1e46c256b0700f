import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { sessionChannel, type SessionEvent } from '@switchboard/queue';
import { SESSION_EVENT_PUBLISHER } from '../backend/backend.tokens';
import type { SessionEventPublisher } from '../backend/session-event-publisher';

/** Publishes committed turns on the session's channel (the API's `?wait` and stream listeners). */
@Injectable()
export class SessionEvents implements OnModuleDestroy {
  private readonly logger = new Logger(SessionEvents.name);
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(@Inject(SESSION_EVENT_PUBLISHER) private readonly publisher: SessionEventPublisher) {}

  /** Best effort: the commit already happened, and listeners can read the rows if this is lost. */
  async publish(sessionId: string, event: SessionEvent): Promise<void> {
    try {
      await this.publisher.publish(sessionChannel(sessionId), event);
    } catch (err) {
      this.logger.warn(`publish on session ${sessionId} failed: ${(err as Error).message}`);
    }
  }

  /**
   * Publishes at `atMs` (a reply delayed by the engine's `afterMs`). Held in this process only:
   * if it stops first the event is lost, like any failed publish; the row (visibleAt) and its
   * webhook delivery (nextAttemptAt) still become visible on time.
   */
  publishAt(atMs: number, sessionId: string, event: SessionEvent): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.publish(sessionId, event);
    }, Math.max(0, atMs - Date.now()));
    timer.unref();
    this.timers.add(timer);
  }

  /** Delayed events are dropped rather than sent early. */
  onModuleDestroy(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

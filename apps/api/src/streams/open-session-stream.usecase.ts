import { Injectable, Logger } from '@nestjs/common';
import { isUuid, PrismaService, withTenant, type SessionStatus } from '@switchboard/db';
import { sessionChannel, type SessionEvent } from '@switchboard/queue';
import type { ChannelScope } from '../channel-auth/channel-auth.context';
import { SessionNotFoundError } from '../messages/messages.errors';
import { SessionEventsSubscriber } from '../redis/session-events.subscriber';
import { currentCursor, settledSince, type CommittedEvent } from './settled-since';
import { formatCursor, type StreamCursor } from './stream-cursor';
import { StreamUnavailableError } from './stream.errors';

/** An open subscription to one session's events; `close` unsubscribes (idempotent). */
export interface SessionStream {
  /** Aborted when the API shuts down: the stream should end. */
  released: AbortSignal;
  close(): void;
}

/** The session's status, sent when a stream starts and whenever it changes (a person took over, or gave back). */
export interface SessionStatusEvent {
  type: 'session';
  status: SessionStatus;
}

/** An event to send, with the SSE id to resume after it (committed events only). */
export type StreamedEvent = { event: SessionEvent | SessionStatusEvent; id?: string };

/** Reply ids remembered per stream, to never send a reply twice on one connection. */
const REMEMBERED_REPLIES = 1000;

/**
 * Checks the session belongs to the caller's channel (404 `session-not-found` otherwise, also for
 * malformed ids, so ids cannot be probed), then subscribes to its events through the API's
 * shared subscriber. Resolves once the subscription is confirmed.
 *
 * Deltas are relayed as they come (they are a preview, never stored). What turns committed is
 * read from Postgres, from the stream's cursor on: at once when the client resumes (`after`,
 * from its Last-Event-ID), and on every live `committed` event. So a client that reconnects gets
 * every reply it missed, exactly once, in order, whether the live events were lost or not; and a
 * client that connects afresh starts at the session's present.
 */
@Injectable()
export class OpenSessionStream {
  private readonly logger = new Logger(OpenSessionStream.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly subscriber: SessionEventsSubscriber,
  ) {}

  async execute(
    scope: ChannelScope,
    sessionId: string,
    onEvent: (e: StreamedEvent) => void,
    options: { after?: StreamCursor } = {},
  ): Promise<SessionStream> {
    if (!isUuid(sessionId)) throw new SessionNotFoundError();
    const start = await withTenant(this.prisma, scope.tenantId, async (tx) => {
      // The caller's own channel only: a key of one channel must not follow another channel's chats.
      const session = await tx.session.findFirst({ where: { id: sessionId, tenantId: scope.tenantId, channelId: scope.channelId }, select: { id: true } });
      if (!session) return null;
      return { cursor: options.after ?? (await currentCursor(tx, session.id, new Date())) };
    });
    if (!start) throw new SessionNotFoundError();

    let cursor = start.cursor;
    let status: SessionStatus | undefined;
    const sentReplies = new Set<string>();
    const sentTurns = new Set<string>();
    let closed = false;
    // Events are handled one at a time, in arrival order: a delta never overtakes the catch-up
    // before it.
    // A catch-up that fails (the database, briefly) leaves the cursor where it was: the next one
    // reads what it missed.
    let chain: Promise<void> = Promise.resolve();
    const enqueue = (work: () => Promise<void> | void): Promise<void> => {
      const done = chain.then(work);
      chain = done.catch((err: Error) => this.logger.warn({ err: err.message, sessionId }, 'stream catch-up failed'));
      return done;
    };

    const catchUp = async (live?: CommittedEvent) => {
      if (closed) return;
      const { found, now } = await withTenant(this.prisma, scope.tenantId, async (tx) => ({
        found: await settledSince(tx, sessionId, cursor, new Date()),
        now: await tx.session.findUnique({ where: { id: sessionId }, select: { status: true } }),
      }));
      for (const { event, cursor: next } of found) {
        cursor = next;
        const replies = event.replies.filter((r) => !sentReplies.has(r.id));
        // Nothing to show (an understand deferral of an agent without a holding message: the
        // `deferred` event says it): only the cursor moves.
        if (replies.length === 0 && event.answered.length === 0) continue;
        // Fields a publisher adds to its event (a status, say) ride along with the stored rows.
        const merged = live && live.turnId === event.turnId ? { ...live, ...event, replies } : { ...event, replies };
        remember(sentReplies, replies.map((r) => r.id));
        remember(sentTurns, [event.turnId]);
        if (!closed) onEvent({ event: merged, id: formatCursor(cursor) });
      }
      // A turn that settled nothing new (no reply, no message answered: a wake, say) is still news.
      if (live && !sentTurns.has(live.turnId) && live.replies.length === 0 && !found.some((f) => f.event.turnId === live.turnId)) {
        remember(sentTurns, [live.turnId]);
        if (!closed) onEvent({ event: live });
      }
      if (now && now.status !== status && !closed) {
        status = now.status;
        onEvent({ event: { type: 'session', status } });
      }
    };

    let stop: () => void;
    try {
      stop = await this.subscriber.listen(sessionChannel(sessionId), (event) => {
        if (event.type === 'delta') enqueue(() => void (closed || onEvent({ event })));
        else if (event.type === 'committed') enqueue(() => catchUp(event));
        else if (event.type === 'deferred') {
          // An understand deferral may have committed the holding message (a Turn of its own,
          // status deferred): it comes as a `committed` event from Postgres like any reply, then
          // the `deferred` event itself, without its copy of the replies (that is for `?wait`).
          const { type, waiting, retryAt } = event;
          enqueue(() => catchUp());
          enqueue(() => void (closed || onEvent({ event: { type, waiting, retryAt } })));
        }
      });
    } catch {
      throw new StreamUnavailableError();
    }
    // Whatever committed between reading the cursor and the subscription (or while the client was
    // away). If this fails the client gets an error answer and reconnects, rather than a stream
    // that silently skipped its catch-up.
    try {
      await enqueue(() => catchUp());
    } catch (err) {
      closed = true;
      stop();
      throw err;
    }
    return {
      released: this.subscriber.released,
      close: () => {
        if (closed) return;
        closed = true;
        stop();
      },
    };
  }
}

function remember(set: Set<string>, ids: string[]): void {
  for (const id of ids) set.add(id);
  while (set.size > REMEMBERED_REPLIES) set.delete(set.values().next().value!);
}

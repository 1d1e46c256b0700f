import { Injectable } from '@nestjs/common';
import { isUuid, PrismaService, withTenant } from '@switchboard/db';
import { sessionChannel, type SessionEvent } from '@switchboard/queue';
import type { ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { SessionNotFoundError } from '../messages/messages.errors';
import { SessionEventsSubscriber } from '../redis/session-events.subscriber';
import { StreamUnavailableError } from './stream.errors';

/** An open subscription to one session's events; `close` unsubscribes (idempotent). */
export interface SessionStream {
  /** Aborted when the API shuts down: the stream should end. */
  released: AbortSignal;
  close(): void;
}

/**
 * Checks the session belongs to the key's tenant (404 `session-not-found` otherwise, also for
 * malformed ids, so ids cannot be probed), then subscribes to its Redis channel through the
 * API's shared subscriber. Resolves once Redis confirmed the subscription, so the caller can
 * promise the client nothing published afterwards is missed.
 */
@Injectable()
export class OpenSessionStream {
  constructor(
    private readonly prisma: PrismaService,
    private readonly subscriber: SessionEventsSubscriber,
  ) {}

  async execute(auth: ChannelAuthContext, sessionId: string, onEvent: (event: SessionEvent) => void): Promise<SessionStream> {
    if (!isUuid(sessionId)) throw new SessionNotFoundError();
    const session = await withTenant(this.prisma, auth.tenantId, (tx) =>
      // The key's own channel only: a key of one channel must not follow another channel's chats.
      tx.session.findFirst({ where: { id: sessionId, tenantId: auth.tenantId, channelId: auth.channelId }, select: { id: true } }),
    );
    if (!session) throw new SessionNotFoundError();
    let stop: () => void;
    try {
      stop = await this.subscriber.listen(sessionChannel(session.id), (event) => {
        if (event.type === 'delta' || event.type === 'committed') onEvent(event);
      });
    } catch {
      throw new StreamUnavailableError();
    }
    let closed = false;
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

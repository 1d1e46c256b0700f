import { Inject, Injectable, Logger } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { sessionChannel, type SessionEvent } from '@switchboard/queue';
import type { Redis } from 'ioredis';
import { REDIS } from '../../redis/redis.tokens';

/** Postgres refuses a NOTIFY payload of 8000 bytes or more (the worker's publisher keeps the same margin). */
const MAX_NOTIFY_BYTES = 7_900;

/**
 * Tells the session's listeners (the widget's and the API's SSE streams) that something was
 * committed, as the worker does after a turn: Redis PUBLISH, or NOTIFY in Postgres mode. Best
 * effort: the rows are the truth, and a stream that misses this reads them when it reconnects.
 */
@Injectable()
export class InboxSessionEvents {
  private readonly logger = new Logger(InboxSessionEvents.name);

  constructor(
    @Inject(REDIS) private readonly redis: Redis | null,
    private readonly prisma: PrismaService,
  ) {}

  async publish(sessionId: string, event: Extract<SessionEvent, { type: 'committed' }>): Promise<void> {
    const channel = sessionChannel(sessionId);
    try {
      if (this.redis) {
        await this.redis.publish(channel, JSON.stringify(event));
        return;
      }
      let payload = JSON.stringify(event);
      // Too big for one notification: listeners read the reply texts from the rows anyway.
      if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) payload = JSON.stringify({ ...event, replies: [] });
      await this.prisma.$executeRaw`SELECT pg_notify(${channel}, ${payload})`;
    } catch (err) {
      this.logger.warn(`publish on session ${sessionId} failed: ${(err as Error).message}`);
    }
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { sessionChannel, type SessionEvent } from '@switchboard/queue';
import { REDIS } from '../redis/redis.module';

/** Publishes committed turns on the session's channel (the API's `?wait` and stream listeners). */
@Injectable()
export class SessionEvents {
  private readonly logger = new Logger(SessionEvents.name);

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** Best effort: the commit already happened, and listeners can read the rows if this is lost. */
  async publish(sessionId: string, event: SessionEvent): Promise<void> {
    try {
      await this.redis.publish(sessionChannel(sessionId), JSON.stringify(event));
    } catch (err) {
      this.logger.warn(`publish on session ${sessionId} failed: ${(err as Error).message}`);
    }
  }
}

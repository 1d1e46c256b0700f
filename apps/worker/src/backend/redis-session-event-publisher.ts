import type { RedisClient } from '@switchboard/queue';
import type { SessionEvent } from '@switchboard/queue';
import type { SessionEventPublisher } from './session-event-publisher';

/** Redis PUBLISH on the session's channel. */
export class RedisSessionEventPublisher implements SessionEventPublisher {
  constructor(private readonly redis: RedisClient) {}

  async publish(channel: string, event: SessionEvent): Promise<void> {
    await this.redis.publish(channel, JSON.stringify(event));
  }
}

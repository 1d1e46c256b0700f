import type { SessionEvent } from '@switchboard/queue';

/** Sends a session event to the API processes listening on the session's channel. */
export interface SessionEventPublisher {
  publish(channel: string, event: SessionEvent): Promise<void>;
}

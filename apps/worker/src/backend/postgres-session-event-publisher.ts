import type { SessionEvent } from '@switchboard/queue';
import type { SqlRunner } from '@switchboard/queue';
import type { SessionEventPublisher } from './session-event-publisher';

/** Postgres refuses a NOTIFY payload of 8000 bytes or more; stay clear of it. */
export const MAX_NOTIFY_BYTES = 7_900;
/** Characters per delta piece: at most 4 bytes each in UTF-8, plus the JSON around them. */
const DELTA_PIECE_CHARS = 1_500;

/**
 * NOTIFY on the session's channel (Postgres mode); the API LISTENs. A committed event too big
 * for one notification goes without its reply texts, marked `repliesOmitted`: the API's
 * subscriber reads them from the turn's rows. A long delta goes as several deltas.
 */
export class PostgresSessionEventPublisher implements SessionEventPublisher {
  constructor(private readonly db: SqlRunner) {}

  async publish(channel: string, event: SessionEvent): Promise<void> {
    for (const payload of notifyPayloads(event)) {
      await this.db.query('SELECT pg_notify($1, $2)', [channel, payload]);
    }
  }
}

/** The event as one or more payloads that each fit in a notification. */
export function notifyPayloads(event: SessionEvent): string[] {
  const whole = JSON.stringify(event);
  if (Buffer.byteLength(whole) <= MAX_NOTIFY_BYTES) return [whole];
  if (event.type === 'committed') {
    // The reply ids stay: an event may carry only some of the turn's replies (a reply delayed by
    // the flow's afterMs is published on its own when it becomes visible).
    return [
      JSON.stringify({
        type: 'committed',
        turnId: event.turnId,
        answered: event.answered,
        ...(event.status && { status: event.status }),
        ...(event.retryAt && { retryAt: event.retryAt }),
        repliesOmitted: true,
        replyIds: event.replies.map((r) => r.id),
      }),
    ];
  }
  // A deferral names a few message ids: it always fits; only a delta is cut into pieces.
  if (event.type !== 'delta') return [whole];
  const pieces: string[] = [];
  for (let i = 0; i < event.delta.length; i += DELTA_PIECE_CHARS) {
    pieces.push(JSON.stringify({ ...event, delta: event.delta.slice(i, i + DELTA_PIECE_CHARS) }));
  }
  return pieces;
}

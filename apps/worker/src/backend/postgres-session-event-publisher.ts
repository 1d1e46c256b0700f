import type { SessionEvent } from '@switchboard/queue';
import type { SqlRunner } from '@switchboard/queue';
import type { SessionEventPublisher } from './session-event-publisher';

/** Postgres refuses a NOTIFY payload of 8000 bytes or more; stay clear of it. */
export const MAX_NOTIFY_BYTES = 7_900;
/** Characters per delta piece: at most 4 bytes each in UTF-8, plus the JSON around them. */
const DELTA_PIECE_CHARS = 1_500;

/** Notifications sent in one statement at most: a burst's statement stays a few hundred kilobytes. */
const MAX_BATCH = 100;

/** Sends a batch's notifications in array order (Postgres evaluates a volatile call after the sort). */
const NOTIFY_BATCH = 'SELECT pg_notify(n.channel, n.payload) FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS n(channel, payload, i) ORDER BY n.i';

/** Notifications sent together in one statement, and the callers waiting on it. */
class NotifyBatch {
  readonly channels: string[] = [];
  readonly payloads: string[] = [];
  private readonly sent = new Set<string>();
  readonly done: Promise<void>;
  resolve!: () => void;
  reject!: (err: unknown) => void;

  constructor() {
    this.done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /**
   * False when the batch is full, or already holds this very notification: Postgres delivers
   * identical notifications of one transaction once, and two equal pieces of a long delta are both
   * needed.
   */
  add(channel: string, payload: string): boolean {
    const key = `${channel}\n${payload}`;
    if (this.channels.length >= MAX_BATCH || this.sent.has(key)) return false;
    this.sent.add(key);
    this.channels.push(channel);
    this.payloads.push(payload);
    return true;
  }
}

/**
 * NOTIFY on the session's channel (Postgres mode); the API LISTENs. A committed event too big
 * for one notification goes without its reply texts, marked `repliesOmitted`: the API's
 * subscriber reads them from the turn's rows. A long delta goes as several deltas.
 *
 * The twin of Redis's auto-pipelining: the events published in one tick, or while the statement
 * before is in flight, leave in one statement, one after another. A turn's last delta and its
 * `committed` event so cost one round trip, not two. The statements go one at a time, in order:
 * separate statements on a pool's connections could commit out of order, and a listener must see
 * every delta before the event that ends the turn.
 */
export class PostgresSessionEventPublisher implements SessionEventPublisher {
  private readonly queue: NotifyBatch[] = [];
  private sending = false;

  constructor(private readonly db: SqlRunner) {}

  async publish(channel: string, event: SessionEvent): Promise<void> {
    await Promise.all(notifyPayloads(event).map((payload) => this.enqueue(channel, payload)));
  }

  private enqueue(channel: string, payload: string): Promise<void> {
    let batch = this.queue.at(-1);
    if (!batch?.add(channel, payload)) {
      batch = new NotifyBatch();
      batch.add(channel, payload);
      this.queue.push(batch);
    }
    if (!this.sending) {
      this.sending = true;
      // Next tick: what the caller publishes next in this tick joins the batch.
      process.nextTick(() => void this.send());
    }
    return batch.done;
  }

  private async send(): Promise<void> {
    for (let batch = this.queue.shift(); batch; batch = this.queue.shift()) {
      try {
        await this.db.query(NOTIFY_BATCH, [batch.channels, batch.payloads]);
        batch.resolve();
      } catch (err) {
        batch.reject(err);
      }
    }
    this.sending = false;
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

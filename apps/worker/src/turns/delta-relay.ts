/** At most one delta event per this many ms for a turn: the deltas in between are joined. */
export const DELTA_FLUSH_MS = 20;

/**
 * Relays a turn's streamed reply text on the session channel in joined pieces: what arrives in
 * one go is one event, and after an event the next waits at least DELTA_FLUSH_MS. A model that
 * streams token by token would otherwise cost one publish per token — a Redis PUBLISH, or a
 * `pg_notify` round trip in Postgres mode — where a listener only needs the text in order.
 * When the stream ends the turn `hold`s what is pending and `flush`es it right after its commit,
 * with the commit's event: both leave in one write, and the event still comes after every delta.
 */
export class DeltaRelay {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  private sentAt = -Infinity;

  constructor(
    private readonly send: (delta: string) => void,
    private readonly flushMs = DELTA_FLUSH_MS,
    private readonly now: () => number = Date.now,
  ) {}

  push(delta: string): void {
    if (delta === '') return;
    this.pending += delta;
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), Math.max(0, this.sentAt + this.flushMs - this.now()));
    this.timer.unref();
  }

  /** Keeps what is pending for the next `flush` and sends nothing before it. */
  hold(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '') return;
    const delta = this.pending;
    this.pending = '';
    this.sentAt = this.now();
    this.send(delta);
  }
}

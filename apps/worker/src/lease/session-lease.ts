import { randomBytes } from 'node:crypto';
import type { LeaseStore } from './lease-store';

// One turn at a time per session, across processes: a lease per session with a TTL, holding a
// random token, in the backend's LeaseStore (a Redis key, or a row in Postgres mode). Only the
// holder of the token may renew or release it, so a lease that expired and was taken by another
// worker is never touched.

export interface SessionLeaseOptions {
  /** Key prefix (the deployment's QUEUE_PREFIX), so test runs and deployments never collide. */
  prefix: string;
  ttlMs: number;
}

/** The lease key of a session under a deployment's prefix (QUEUE_PREFIX). */
export function sessionLeaseKey(prefix: string, sessionId: string): string {
  return `${prefix}:lease:session:${sessionId}`;
}

export class SessionLeases {
  constructor(
    private readonly store: LeaseStore,
    private readonly opts: SessionLeaseOptions,
  ) {}

  key(sessionId: string): string {
    return sessionLeaseKey(this.opts.prefix, sessionId);
  }

  /** Takes the session's lease, or returns null when another holder has it. Renews itself until released. */
  async acquire(sessionId: string): Promise<Lease | null> {
    const ticket = this.ticket(sessionId);
    if (!(await this.store.take(ticket.key, ticket.token, ticket.ttlMs))) return null;
    return this.taken(ticket);
  }

  /** True when a statement in the app's database can take a lease itself (Postgres mode). */
  get takeableInAppDatabase(): boolean {
    return this.store.sharesAppDatabase;
  }

  /** What a statement needs to take the session's lease itself: its key, a fresh token, the TTL. */
  ticket(sessionId: string): LeaseTicket {
    return { key: this.key(sessionId), token: randomBytes(16).toString('hex'), ttlMs: this.opts.ttlMs };
  }

  /** The lease a statement took with `ticket`: renews itself from now until released. */
  taken(ticket: LeaseTicket): Lease {
    return new Lease(this.store, ticket.key, ticket.token, ticket.ttlMs);
  }

  /** Frees what a statement may have taken with `ticket` (nothing when it took nothing: the token is fresh). */
  async letGo(ticket: LeaseTicket): Promise<void> {
    await this.store.release(ticket.key, ticket.token);
  }
}

export interface LeaseTicket {
  key: string;
  token: string;
  ttlMs: number;
}

export class Lease {
  private timer: NodeJS.Timeout | undefined;
  private held = true;

  constructor(
    private readonly store: LeaseStore,
    readonly key: string,
    readonly token: string,
    private readonly ttlMs: number,
  ) {
    this.timer = setInterval(() => void this.renew(), Math.max(250, Math.floor(ttlMs / 3)));
    this.timer.unref();
  }

  /** False once a renewal found the lease gone or taken: stop starting turns under it. */
  get isHeld(): boolean {
    return this.held;
  }

  async renew(): Promise<boolean> {
    if (!this.held) return false;
    try {
      if (!(await this.store.renew(this.key, this.token, this.ttlMs))) this.lose();
    } catch {
      // A store hiccup is not a loss: the TTL still runs and the next renewal may succeed.
    }
    return this.held;
  }

  /** Frees the lease only if it still holds our token. */
  async release(): Promise<void> {
    const wasHeld = this.held;
    this.lose();
    if (wasHeld) await this.store.release(this.key, this.token);
  }

  private lose(): void {
    this.held = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

// One turn at a time per session, across processes: a Redis key per session set with NX and a
// TTL, holding a random token. Only the holder of the token may renew or release it (Lua
// compare-and-set), so a lease that expired and was taken by another worker is never touched.

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface SessionLeaseOptions {
  /** Key prefix (the deployment's QUEUE_PREFIX), so test runs and deployments never collide. */
  prefix: string;
  ttlMs: number;
}

export class SessionLeases {
  constructor(
    private readonly redis: Redis,
    private readonly opts: SessionLeaseOptions,
  ) {}

  key(sessionId: string): string {
    return `${this.opts.prefix}:lease:session:${sessionId}`;
  }

  /** Takes the session's lease, or returns null when another holder has it. Renews itself until released. */
  async acquire(sessionId: string): Promise<Lease | null> {
    const token = randomBytes(16).toString('hex');
    const key = this.key(sessionId);
    const ok = await this.redis.set(key, token, 'PX', this.opts.ttlMs, 'NX');
    if (ok !== 'OK') return null;
    return new Lease(this.redis, key, token, this.opts.ttlMs);
  }
}

export class Lease {
  private timer: NodeJS.Timeout | undefined;
  private held = true;

  constructor(
    private readonly redis: Redis,
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
      const n = await this.redis.eval(RENEW, 1, this.key, this.token, String(this.ttlMs));
      if (n !== 1) this.lose();
    } catch {
      // A Redis hiccup is not a loss: the TTL still runs and the next renewal may succeed.
    }
    return this.held;
  }

  /** Deletes the key only if it still holds our token. */
  async release(): Promise<void> {
    const wasHeld = this.held;
    this.lose();
    if (wasHeld) await this.redis.eval(RELEASE, 1, this.key, this.token);
  }

  private lose(): void {
    this.held = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

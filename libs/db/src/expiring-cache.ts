/** Keys remembered at most per cache; past it the cache is cleared whole (cheap, and rare). */
const MAX_ENTRIES = 10_000;

/**
 * Values read from the database, trusted for `ttlMs` per key: for checks made on every request
 * (quota verdicts, a tenant's status) where a few seconds of staleness is the documented price.
 */
export class ExpiringCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  constructor(private readonly ttlMs: number) {}

  async get(key: string, compute: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.until > now) return cached.value;
    const value = await compute();
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { value, until: now + this.ttlMs });
    return value;
  }

  /** The next get of `key` reads again (after a change made by this process). */
  forget(key: string): void {
    this.entries.delete(key);
  }
}

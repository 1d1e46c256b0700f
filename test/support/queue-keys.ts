import Redis from 'ioredis';

// A test's queue prefix leaves BullMQ's keys (jobs, queues, metrics), the rate limiters' counters
// and the leases in Redis, none with a TTL: without this they pile up run after run on a machine
// that keeps its Redis. Called once the processes on the prefix have stopped.

/** Deletes every Redis key of `prefix` (`<prefix>:…`); nothing to do without a REDIS_URL (Postgres mode). */
export async function deleteQueueKeys(prefix: string, redisUrl = process.env.REDIS_URL): Promise<void> {
  if (!redisUrl || !prefix) return;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await scanKeys(redis, `${prefix}:*`);
    for (let i = 0; i < keys.length; i += 1000) await redis.unlink(...keys.slice(i, i + 1000));
  } catch (err) {
    // A cleanup that failed must not fail the suite that passed, but it is said.
    process.stderr.write(`queue keys of ${prefix} left in Redis: ${(err as Error).message}\n`);
  } finally {
    redis.disconnect();
  }
}

/** Every key matching `pattern`, read with SCAN (never KEYS: other suites share the server). */
export async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}

import type { RedisClient } from '@switchboard/queue';
import type { LeaseStore } from './lease-store';

// Compare-and-set in Lua: check the token and act in one step.
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Leases as Redis keys: SET NX PX to take, expiry by Redis itself. */
export class RedisLeaseStore implements LeaseStore {
  readonly sharesAppDatabase = false;

  constructor(private readonly redis: RedisClient) {}

  async take(key: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async renew(key: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(RENEW, 1, key, token, String(ttlMs))) === 1;
  }

  async release(key: string, token: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, key, token);
  }
}

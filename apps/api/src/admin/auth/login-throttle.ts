import { Inject, Injectable } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ENV } from '../../config/env.module';
import { REDIS } from '../../redis/redis.tokens';
import { TooManyLoginAttemptsError } from '../admin-errors';

/** Failed logins allowed per email and client address, and per address alone, in WINDOW_SECONDS. */
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_ADDRESS = 100;
const WINDOW_SECONDS = 15 * 60;

/**
 * Slows password guessing: after too many failed logins for one email from one address (or
 * from one address over all emails) the login answers 429 until the window passes. Counts live
 * in Redis so every API instance shares them; if Redis is down an in-memory count takes over.
 * A successful login clears the email's count.
 */
@Injectable()
export class LoginThrottle {
  private readonly perAccount: RateLimiterAbstract;
  private readonly perAddress: RateLimiterAbstract;

  constructor(@Inject(REDIS) redis: Redis, @Inject(ENV) env: Env) {
    const limiter = (name: string, points: number) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${env.QUEUE_PREFIX}:login-failures:${name}`,
        points,
        duration: WINDOW_SECONDS,
        insuranceLimiter: new RateLimiterMemory({ points, duration: WINDOW_SECONDS }),
      });
    this.perAccount = limiter('account', MAX_FAILURES_PER_ACCOUNT);
    this.perAddress = limiter('address', MAX_FAILURES_PER_ADDRESS);
  }

  async assertAllowed(email: string, address: string): Promise<void> {
    const checks: [RateLimiterAbstract, string, number][] = [
      [this.perAccount, accountKey(email, address), MAX_FAILURES_PER_ACCOUNT],
      [this.perAddress, address, MAX_FAILURES_PER_ADDRESS],
    ];
    for (const [limiter, key, max] of checks) {
      const state = await limiter.get(key);
      if (state && state.consumedPoints >= max) {
        throw new TooManyLoginAttemptsError(Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
      }
    }
  }

  async recordFailure(email: string, address: string): Promise<void> {
    // consume() rejects once the count passes the limit; the count is what matters here.
    await Promise.allSettled([this.perAccount.consume(accountKey(email, address)), this.perAddress.consume(address)]);
  }

  async recordSuccess(email: string, address: string): Promise<void> {
    await this.perAccount.delete(accountKey(email, address));
  }
}

function accountKey(email: string, address: string): string {
  return `${email.toLowerCase()}|${address}`;
}

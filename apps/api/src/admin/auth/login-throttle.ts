import { Inject, Injectable } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { ENV } from '../../config/env.module';
import { RATE_LIMITERS, type RateLimiters } from '../../redis/rate-limiters';
import { TooManyLoginAttemptsError } from '../admin-errors';

/** Failed logins allowed in WINDOW_SECONDS for one email from one client address. */
export const MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS = 10;
/** ...for one email from any address: guessing spread over many addresses. */
export const MAX_FAILURES_PER_ACCOUNT = 30;
/** ...from one address over all emails: one client trying many accounts. */
export const MAX_FAILURES_PER_ADDRESS = 100;
const WINDOW_SECONDS = 15 * 60;

/**
 * Slows password guessing: after too many failed logins for one email from one address, for
 * one email overall, or from one address overall, the login answers 429 too-many-login-attempts
 * with Retry-After until the window passes, even for the right password. Counts live where the
 * ingest limits' do (RATE_LIMITERS: Redis, or Postgres in Postgres mode) so every API instance
 * shares them. A successful login clears the email-and-address count only: the overall counts
 * keep a distributed guesser slowed down.
 */
@Injectable()
export class LoginThrottle {
  private readonly perAccountAndAddress: RateLimiterAbstract;
  private readonly perAccount: RateLimiterAbstract;
  private readonly perAddress: RateLimiterAbstract;

  constructor(@Inject(RATE_LIMITERS) limiters: RateLimiters, @Inject(ENV) env: Env) {
    const limiter = (name: string, points: number) =>
      limiters.create({ keyPrefix: `${env.QUEUE_PREFIX}:login-failures:${name}`, points, durationSeconds: WINDOW_SECONDS });
    // The first name is the one used before the overall account count existed: counts carry over.
    this.perAccountAndAddress = limiter('account', MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS);
    this.perAccount = limiter('account-any-address', MAX_FAILURES_PER_ACCOUNT);
    this.perAddress = limiter('address', MAX_FAILURES_PER_ADDRESS);
  }

  async assertAllowed(email: string, address: string): Promise<void> {
    for (const [limiter, key, max] of this.checks(email, address)) {
      const state = await limiter.get(key);
      if (state && state.consumedPoints >= max) {
        throw new TooManyLoginAttemptsError(Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
      }
    }
  }

  async recordFailure(email: string, address: string): Promise<void> {
    // consume() rejects once the count passes the limit; the count is what matters here.
    await Promise.allSettled(this.checks(email, address).map(([limiter, key]) => limiter.consume(key)));
  }

  async recordSuccess(email: string, address: string): Promise<void> {
    await this.perAccountAndAddress.delete(accountKey(email, address));
  }

  private checks(email: string, address: string): [RateLimiterAbstract, string, number][] {
    return [
      [this.perAccountAndAddress, accountKey(email, address), MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS],
      [this.perAccount, email.toLowerCase(), MAX_FAILURES_PER_ACCOUNT],
      [this.perAddress, address, MAX_FAILURES_PER_ADDRESS],
    ];
  }
}

function accountKey(email: string, address: string): string {
  return `${email.toLowerCase()}|${address}`;
}

import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import type { FastifyReply } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ChannelAuthRequest } from '../channel-auth/channel-auth.context';
import { ENV } from '../config/env.module';
import { RATE_LIMITERS, type RateLimiters } from '../redis/rate-limiters';
import { RateLimitedError } from './rate-limited.error';

const WINDOW_SECONDS = 60;

interface Window {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * Per API key and per tenant message limits on ingest, counted in Redis (a Postgres table in
 * Postgres mode) so every API instance shares them (an in-memory count takes over while Redis is down). Every answer carries
 * RateLimit-Limit/Remaining/Reset for the tighter of the two windows; over either limit the
 * request is refused with 429 `rate-limited` and Retry-After, before anything is stored.
 * Runs after ApiKeyGuard, which identifies the key and tenant.
 */
@Injectable()
export class IngestRateLimitGuard implements CanActivate {
  private readonly perKey: RateLimiterAbstract;
  private readonly perTenant: RateLimiterAbstract;
  private readonly keyLimit: number;
  private readonly tenantLimit: number;

  constructor(@Inject(RATE_LIMITERS) limiters: RateLimiters, @Inject(ENV) env: Env) {
    this.keyLimit = env.RATE_LIMIT_KEY_PER_MINUTE;
    this.tenantLimit = env.RATE_LIMIT_TENANT_PER_MINUTE;
    const limiter = (name: string, points: number) =>
      limiters.create({ keyPrefix: `${env.QUEUE_PREFIX}:ingest-rate:${name}`, points, durationSeconds: WINDOW_SECONDS });
    this.perKey = limiter('key', this.keyLimit);
    this.perTenant = limiter('tenant', this.tenantLimit);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const auth = http.getRequest<ChannelAuthRequest>().channelAuth;
    // ApiKeyGuard runs first and refuses requests without a key; nothing to count otherwise.
    if (!auth) return true;
    const reply = http.getResponse<FastifyReply>();

    // Both counts at once: the Redis client's auto-pipelining sends the two scripts in one
    // write and gets both answers in one read. A request the key's window refuses is given back
    // to the tenant's window, so a flooding key does not use up its tenant's other keys' share.
    const [key, tenant] = await Promise.all([
      this.consume(this.perKey, auth.apiKeyId, this.keyLimit),
      this.consume(this.perTenant, auth.tenantId, this.tenantLimit),
    ]);
    if (key.refused) {
      await this.perTenant.reward(auth.tenantId).catch(() => undefined);
      return this.refuse(reply, 'api-key', key.window);
    }
    if (tenant.refused) return this.refuse(reply, 'tenant', tenant.window);
    setHeaders(reply, key.window.remaining / key.window.limit <= tenant.window.remaining / tenant.window.limit ? key.window : tenant.window);
    return true;
  }

  private async consume(limiter: RateLimiterAbstract, id: string, limit: number): Promise<{ refused: boolean; window: Window }> {
    try {
      const res = await limiter.consume(id);
      return { refused: false, window: toWindow(res, limit) };
    } catch (err) {
      // consume() rejects with the limiter's state when the limit is passed; anything else is a bug.
      if (err instanceof RateLimiterRes) return { refused: true, window: toWindow(err, limit) };
      throw err;
    }
  }

  private refuse(reply: FastifyReply, scope: 'api-key' | 'tenant', window: Window): never {
    setHeaders(reply, window);
    throw new RateLimitedError(scope, window.limit, Math.max(1, window.resetSeconds));
  }
}

function toWindow(res: RateLimiterRes, limit: number): Window {
  return { limit, remaining: Math.max(0, res.remainingPoints), resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
}

function setHeaders(reply: FastifyReply, w: Window): void {
  void reply.header('RateLimit-Limit', String(w.limit));
  void reply.header('RateLimit-Remaining', String(w.remaining));
  void reply.header('RateLimit-Reset', String(w.resetSeconds));
}

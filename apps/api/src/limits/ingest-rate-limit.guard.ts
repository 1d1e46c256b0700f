import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import type { FastifyReply } from 'fastify';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ChannelAuthRequest } from '../channel-auth/channel-auth.context';
import { ENV } from '../config/env.module';
import { RATE_LIMITERS, type RateLimiters } from '../redis/rate-limiters';
import { BatchedWindow, type Window } from './batched-window';
import { RateLimitedError } from './rate-limited.error';

const WINDOW_SECONDS = 60;

/**
 * Per API key and per tenant message limits on ingest, counted in Redis (a Postgres table in
 * Postgres mode) so every API instance shares them (an in-memory count takes over while Redis is down). Every answer carries
 * RateLimit-Limit/Remaining/Reset for the tighter of the two windows; over either limit the
 * request is refused with 429 `rate-limited` and Retry-After, before anything is stored.
 * Runs after ApiKeyGuard, which identifies the key and tenant.
 */
@Injectable()
export class IngestRateLimitGuard implements CanActivate {
  private readonly perKey: BatchedWindow;
  private readonly perTenant: BatchedWindow;
  /** The tenant's window itself, to give back what the key's window refused. */
  private readonly tenantLimiter: RateLimiterAbstract;

  constructor(@Inject(RATE_LIMITERS) limiters: RateLimiters, @Inject(ENV) env: Env) {
    const limiter = (name: string, points: number) =>
      limiters.create({ keyPrefix: `${env.QUEUE_PREFIX}:ingest-rate:${name}`, points, durationSeconds: WINDOW_SECONDS });
    this.tenantLimiter = limiter('tenant', env.RATE_LIMIT_TENANT_PER_MINUTE);
    this.perKey = new BatchedWindow(limiter('key', env.RATE_LIMIT_KEY_PER_MINUTE), env.RATE_LIMIT_KEY_PER_MINUTE);
    this.perTenant = new BatchedWindow(this.tenantLimiter, env.RATE_LIMIT_TENANT_PER_MINUTE);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const auth = http.getRequest<ChannelAuthRequest>().channelAuth;
    // ApiKeyGuard runs first and refuses requests without a key; nothing to count otherwise.
    if (!auth) return true;
    const reply = http.getResponse<FastifyReply>();

    // Both counts at once, each with the concurrent requests of the same key or tenant (one
    // script per window and batch; auto-pipelining sends both in one write). A request the key's
    // window refuses is given back to the tenant's window, so a flooding key does not use up its
    // tenant's other keys' share.
    const [key, tenant] = await Promise.all([this.perKey.count(auth.apiKeyId), this.perTenant.count(auth.tenantId)]);
    if (key.refused) {
      await this.tenantLimiter.reward(auth.tenantId).catch(() => undefined);
      return this.refuse(reply, 'api-key', key.window);
    }
    if (tenant.refused) return this.refuse(reply, 'tenant', tenant.window);
    setHeaders(reply, key.window.remaining / key.window.limit <= tenant.window.remaining / tenant.window.limit ? key.window : tenant.window);
    return true;
  }

  private refuse(reply: FastifyReply, scope: 'api-key' | 'tenant', window: Window): never {
    setHeaders(reply, window);
    throw new RateLimitedError(scope, window.limit, Math.max(1, window.resetSeconds));
  }
}

function setHeaders(reply: FastifyReply, w: Window): void {
  void reply.header('RateLimit-Limit', String(w.limit));
  void reply.header('RateLimit-Remaining', String(w.remaining));
  void reply.header('RateLimit-Reset', String(w.resetSeconds));
}

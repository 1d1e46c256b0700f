import { Inject, Injectable } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ENV } from '../config/env.module';
import { RATE_LIMITERS, type RateLimiters } from '../redis/rate-limiters';
import { WidgetRateLimitedError } from './widget.errors';

const HOUR = 3600;
const MINUTE = 60;

/**
 * The widget's limits, in the same shared store as ingest's (Redis, or Postgres in Postgres
 * mode): new visitor sessions per address and per widget per hour (a page cannot mint tokens in
 * bulk), and messages per visitor per minute. A visitor's messages also count against their
 * tenant's ingest limit (the counter the API keys share), so a widget cannot go around it.
 */
@Injectable()
export class WidgetRateLimits {
  private readonly sessionsPerAddress: RateLimiterAbstract;
  private readonly sessionsPerWidget: RateLimiterAbstract;
  private readonly messagesPerVisitor: RateLimiterAbstract;
  private readonly messagesPerTenant: RateLimiterAbstract;

  constructor(@Inject(RATE_LIMITERS) limiters: RateLimiters, @Inject(ENV) private readonly env: Env) {
    const limiter = (name: string, points: number, durationSeconds: number) =>
      limiters.create({ keyPrefix: `${env.QUEUE_PREFIX}:${name}`, points, durationSeconds });
    this.sessionsPerAddress = limiter('widget-rate:sessions-address', env.WIDGET_SESSIONS_PER_ADDRESS_PER_HOUR, HOUR);
    this.sessionsPerWidget = limiter('widget-rate:sessions-widget', env.WIDGET_SESSIONS_PER_WIDGET_PER_HOUR, HOUR);
    this.messagesPerVisitor = limiter('widget-rate:messages-visitor', env.WIDGET_MESSAGES_PER_VISITOR_PER_MINUTE, MINUTE);
    // The very counter IngestRateLimitGuard keeps per tenant.
    this.messagesPerTenant = limiter('ingest-rate:tenant', env.RATE_LIMIT_TENANT_PER_MINUTE, MINUTE);
  }

  /** Counts one visitor session (new or renewed) from `address` on `channelId`; 429 beyond. */
  async session(address: string, channelId: string): Promise<void> {
    await this.consume(this.sessionsPerAddress, `${channelId}:${address}`, 'address', this.env.WIDGET_SESSIONS_PER_ADDRESS_PER_HOUR, HOUR);
    await this.consume(this.sessionsPerWidget, channelId, 'widget', this.env.WIDGET_SESSIONS_PER_WIDGET_PER_HOUR, HOUR);
  }

  /** Counts one message of a visitor; 429 beyond. */
  async message(tenantId: string, visitor: string): Promise<void> {
    await this.consume(this.messagesPerVisitor, visitor, 'visitor', this.env.WIDGET_MESSAGES_PER_VISITOR_PER_MINUTE, MINUTE);
    await this.consume(this.messagesPerTenant, tenantId, 'tenant', this.env.RATE_LIMIT_TENANT_PER_MINUTE, MINUTE);
  }

  private async consume(limiter: RateLimiterAbstract, id: string, scope: 'address' | 'widget' | 'visitor' | 'tenant', limit: number, windowSeconds: number): Promise<void> {
    try {
      await limiter.consume(id);
    } catch (err) {
      // consume() rejects with the limiter's state when the limit is passed; anything else is a bug.
      if (!(err instanceof RateLimiterRes)) throw err;
      throw new WidgetRateLimitedError(scope, limit, windowSeconds, Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
    }
  }
}

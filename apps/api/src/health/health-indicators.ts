import { Inject, Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { PrismaService } from '@switchboard/db';
import type { RedisClient } from '@switchboard/queue';
import { REDIS } from '../redis/redis.tokens';
import { withTimeout } from '../common/with-timeout';

const CHECK_TIMEOUT_MS = 1500;

/**
 * Postgres and Redis checks for /health/ready (Redis only when the apps run on it). The public answer says only up or down; the
 * reason (which may name hosts) goes to the log.
 */
@Injectable()
export class DependencyIndicators {
  private readonly logger = new Logger('Health');

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly prisma: PrismaService,
    @Inject(REDIS) private readonly redis: RedisClient | null,
  ) {}

  /** False in Postgres mode: no Redis to check (the queue lives in Postgres). */
  get usesRedis(): boolean {
    return this.redis !== null;
  }

  async postgres() {
    const check = this.indicators.check('postgres');
    try {
      await withTimeout(this.prisma.$queryRaw`SELECT 1`, CHECK_TIMEOUT_MS, 'postgres SELECT 1');
      return check.up();
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'postgres is down');
      return check.down({ message: 'no answer to SELECT 1' });
    }
  }

  async redisPing() {
    const check = this.indicators.check('redis');
    try {
      if (!this.redis) throw new Error('Postgres mode has no Redis');
      await withTimeout(this.redis.ping(), CHECK_TIMEOUT_MS, 'redis PING');
      return check.up();
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'redis is down');
      return check.down({ message: 'no answer to PING' });
    }
  }
}

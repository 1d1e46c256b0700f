import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { PrismaService } from '@switchboard/db';
import type { Redis } from 'ioredis';
import { REDIS } from '../redis/redis.tokens';
import { withTimeout } from '../common/with-timeout';

const CHECK_TIMEOUT_MS = 1500;

@Injectable()
export class DependencyIndicators {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly prisma: PrismaService,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async postgres() {
    const check = this.indicators.check('postgres');
    try {
      await withTimeout(this.prisma.$queryRaw`SELECT 1`, CHECK_TIMEOUT_MS, 'postgres SELECT 1');
      return check.up();
    } catch (err) {
      return check.down({ message: (err as Error).message });
    }
  }

  async redisPing() {
    const check = this.indicators.check('redis');
    try {
      await withTimeout(this.redis.ping(), CHECK_TIMEOUT_MS, 'redis PING');
      return check.up();
    } catch (err) {
      return check.down({ message: (err as Error).message });
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { PrismaService } from '@switchboard/db';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ENV } from '../config/env.module';
import { RATE_LIMITERS, type RateLimiters } from '../redis/rate-limiters';

/** BullMQ's lowest priority (largest number it accepts). */
export const MAX_JOB_PRIORITY = 2_097_152;
/** The window a tenant's turn jobs are counted in. */
export const FAIR_WINDOW_SECONDS = 10;
/** How long a tenant's weight is trusted before it is read again. */
const WEIGHT_TTL_MS = 30_000;

/**
 * Fair scheduling across tenants (docs/fairness.md). Every turn job the API adds gets a BullMQ
 * priority: the how-many-th job of its tenant in the current window, divided by the tenant's
 * weight. Workers take the lowest number first, so the k-th message of a flooding tenant waits
 * behind the first messages of everyone else — round robin by message, on BullMQ's open
 * features, the same on Redis and on Postgres (the counter is the rate limiters' shared store).
 * Per-session order does not depend on it: a session's lease holder answers its queued messages
 * in arrival order, whichever job woke it.
 */
@Injectable()
export class FairShare {
  private readonly counter: RateLimiterAbstract;
  private readonly weights = new Map<string, { weight: number; until: number }>();

  constructor(
    @Inject(RATE_LIMITERS) limiters: RateLimiters,
    @Inject(ENV) env: Env,
    private readonly prisma: PrismaService,
  ) {
    this.counter = limiters.create({ keyPrefix: `${env.QUEUE_PREFIX}:fair-share`, points: MAX_JOB_PRIORITY, durationSeconds: FAIR_WINDOW_SECONDS });
  }

  /** The priority of the tenant's next turn job (1 = first in line). */
  async nextPriority(tenantId: string): Promise<number> {
    return (await this.nextPriorities(tenantId, 1))[0];
  }

  /** The priorities of the tenant's next `n` turn jobs, in one count (a batch's jobs). */
  async nextPriorities(tenantId: string, n: number): Promise<number[]> {
    const [count, weight] = await Promise.all([this.count(tenantId, n), this.weight(tenantId)]);
    return Array.from({ length: n }, (_, i) => Math.min(MAX_JOB_PRIORITY, Math.max(1, Math.ceil((count - n + 1 + i) / weight))));
  }

  /** How many turn jobs of the tenant the window holds after adding `n`. */
  private async count(tenantId: string, n: number): Promise<number> {
    try {
      return (await this.counter.consume(tenantId, n)).consumedPoints;
    } catch (err) {
      // Past the counter's ceiling (two million jobs in a window): last in line.
      if (err instanceof RateLimiterRes) return MAX_JOB_PRIORITY + n;
      throw err;
    }
  }

  private async weight(tenantId: string): Promise<number> {
    const cached = this.weights.get(tenantId);
    if (cached && cached.until > Date.now()) return cached.weight;
    const row = await this.prisma.tenant.findUnique({ where: { id: tenantId }, select: { queueWeight: true } });
    const weight = row?.queueWeight ?? 1;
    this.weights.set(tenantId, { weight, until: Date.now() + WEIGHT_TTL_MS });
    return weight;
  }
}

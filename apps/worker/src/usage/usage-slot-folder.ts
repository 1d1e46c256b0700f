import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { foldUsageSlots, PrismaService } from '@switchboard/db';
import { LEASE_STORE } from '../backend/backend.tokens';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import type { LeaseStore } from '../lease/lease-store';
import { PeriodicTask } from '../periodic/periodic-task';

/**
 * Keeps the usage roll-ups small: once per USAGE_FOLD_INTERVAL_MS, one worker (a lock taken for
 * the interval and left to expire, as the sweeper's) folds the slots of days before today (UTC)
 * into one row per (tenant, agent, day). Today's rows keep their slots: they take the commits.
 */
@Injectable()
export class UsageSlotFolder implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(UsageSlotFolder.name);
  private readonly periodic = new PeriodicTask(this.logger, 'usage slot fold failed', () => this.tick());

  constructor(
    @Inject(WORKER_ENV) private readonly env: WorkerEnv,
    @Inject(LEASE_STORE) private readonly locks: LeaseStore,
    private readonly prisma: PrismaService,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.start(this.env.USAGE_FOLD_INTERVAL_MS);
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic.stop();
  }

  /** Folds if no other worker did during this interval; null when it was not our turn. */
  async tick(now = new Date()): Promise<number | null> {
    const key = `${this.env.QUEUE_PREFIX}:usage-fold`;
    if (!(await this.locks.take(key, `${process.pid}-${randomUUID()}`, this.env.USAGE_FOLD_INTERVAL_MS))) return null;
    const today = new Date(now.toISOString().slice(0, 10));
    const folded = await foldUsageSlots(this.prisma, today);
    if (folded > 0) this.logger.log({ msg: 'usage slots folded', before: today.toISOString().slice(0, 10), rows: folded });
    return folded;
  }
}

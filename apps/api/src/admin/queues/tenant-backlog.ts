import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { tenantScope } from '../tenant-scope';

/** A tenant's share of the pipeline, counted from its own rows in Postgres. */
export interface TenantBacklog {
  /** Inbound messages waiting for an answer. */
  messagesQueued: number;
  /** Scheduled wakes whose time has come (the worker is about to run them, or is behind). */
  wakesDue: number;
  /** Scheduled wakes still in the future. */
  wakesScheduled: number;
  /** Webhook deliveries not sent yet: new, or between retries. */
  deliveriesPending: number;
  deliveriesFailed: number;
  /** Deliveries that gave up: they wait for a redrive. */
  deliveriesDead: number;
}

@Injectable()
export class TenantBacklogCounter {
  constructor(private readonly prisma: PrismaService) {}

  /** The caller's tenant (every tenant for a platform admin). */
  count(user: AdminUser, now = new Date()): Promise<TenantBacklog> {
    const scope = tenantScope(user);
    return adminTransaction(this.prisma, user, async (tx) => {
      const [messagesQueued, wakesDue, wakesScheduled, deliveries] = await Promise.all([
        tx.message.count({ where: { ...scope, direction: 'inbound', status: 'queued' } }),
        tx.wake.count({ where: { ...scope, status: 'scheduled', dueAt: { lte: now } } }),
        tx.wake.count({ where: { ...scope, status: 'scheduled', dueAt: { gt: now } } }),
        tx.delivery.groupBy({ by: ['status'], where: { ...scope, status: { in: ['pending', 'failed', 'dead'] } }, _count: { _all: true } }),
      ]);
      const of = (status: string) => deliveries.find((d) => d.status === status)?._count._all ?? 0;
      return { messagesQueued, wakesDue, wakesScheduled, deliveriesPending: of('pending'), deliveriesFailed: of('failed'), deliveriesDead: of('dead') };
    });
  }
}

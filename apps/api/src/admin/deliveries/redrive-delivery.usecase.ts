import { Injectable } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import { ResourceNotFoundError } from '../admin-errors';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { isUuid } from '../list-query/filters';
import { tenantScope } from '../tenant-scope';
import { DeliveryNotRedrivableError } from './delivery-errors';
import { deliverySelect, toDeliveryDto, type DeliveryDto } from './delivery.dto';

const REDRIVABLE = ['dead', 'failed'] as const;

/**
 * Sends a dead (or failed) webhook delivery again: fresh attempts, due now. Deliveries are not
 * queue jobs but rows the worker's dispatcher polls — a `pending` row due now is exactly what a
 * turn's commit writes — so the redriven reply goes through the same path: signed, retried with
 * backoff, and in order, because the dispatcher only sends the oldest unfinished reply of a
 * session. The conditional update makes two concurrent redrives one.
 */
@Injectable()
export class RedriveDelivery {
  constructor(private readonly prisma: PrismaService) {}

  async execute(user: AdminUser, id: string): Promise<DeliveryDto> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = await this.find(tx, user, id);
      if (!(REDRIVABLE as readonly string[]).includes(before.status)) throw new DeliveryNotRedrivableError(id, before.status);
      const moved = await tx.delivery.updateMany({
        where: { id, status: { in: [...REDRIVABLE] } },
        data: { status: 'pending', attempts: 0, nextAttemptAt: new Date() },
      });
      if (moved.count !== 1) throw new DeliveryNotRedrivableError(id, 'no longer dead or failed');
      const after = await this.find(tx, user, id);
      await recordAudit(tx, user, {
        action: 'delivery.redrive',
        entityType: 'delivery',
        entityId: id,
        tenantId: before.tenantId,
        before: { status: before.status, attempts: before.attempts, lastStatusCode: before.lastStatusCode, lastError: before.lastError },
        after: { status: after.status, attempts: after.attempts },
      });
      return after;
    });
  }

  private async find(tx: Prisma.TransactionClient, user: AdminUser, id: string): Promise<DeliveryDto> {
    const row = isUuid(id) ? await tx.delivery.findFirst({ where: { id, ...tenantScope(user) }, select: deliverySelect }) : null;
    if (!row) throw new ResourceNotFoundError('delivery', id);
    return toDeliveryDto(row);
  }
}

import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, UseGuards } from '@nestjs/common';
import { QUEUES } from '@switchboard/queue';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { OPERATORS } from '../common/ops-roles';
import { tenantScope } from '../tenant-scope';
import { TurnDeadLetters } from '../dead-letters/turn-dead-letters';
import { TurnQueueReader, type QueueCounts } from '../dead-letters/turn-queue-reader';
import { TenantBacklogCounter, type TenantBacklog } from './tenant-backlog';
import { Answers } from '../../docs/answer.decorator';
import { z } from 'zod';

const count = z.number().int().nonnegative();
export const queuesAnswer = z.object({
  /** `platform`: a platform admin, with the BullMQ counts; `tenant`: a tenant role. */
  scope: z.enum(['platform', 'tenant']),
  /** The tenant the backlog counts: the caller's, or the one a platform admin picked (X-Tenant-Id); null for all tenants. */
  tenantId: z.uuid().nullable(),
  backlog: z.object({
    /** Inbound messages waiting for an answer. */
    messagesQueued: count,
    /** Scheduled wakes whose time has come (the worker is about to run them, or is behind). */
    wakesDue: count,
    /** Scheduled wakes still in the future. */
    wakesScheduled: count,
    /** Webhook deliveries not sent yet: new, or between retries. */
    deliveriesPending: count,
    deliveriesFailed: count,
    /** Deliveries that gave up: they wait for a redrive. */
    deliveriesDead: count,
    /** Turn jobs that failed every attempt. */
    deadLetters: count,
  }),
  /** BullMQ's own counts per queue. They cover every tenant, so only platform admins get them. */
  queues: z
    .array(
      z.object({
        name: z.string(),
        counts: z.object({ waiting: count, active: count, delayed: count, failed: count, completed: count, prioritized: count, waitingChildren: count }),
      }),
    )
    .optional(),
});
export type QueuesDto = z.infer<typeof queuesAnswer> & { backlog: TenantBacklog; queues?: { counts: QueueCounts }[] };

/**
 * Pipeline health at a glance. BullMQ counts jobs per queue, not per tenant, and a tenant must
 * not learn how busy the others are: tenant roles get their backlog counted from their own rows.
 */
@ApiTags('console admin')
@Controller('v1/admin/queues')
@UseGuards(AdminAuthGuard)
export class QueuesController {
  constructor(
    private readonly backlog: TenantBacklogCounter,
    private readonly deadLetters: TurnDeadLetters,
    private readonly queue: TurnQueueReader,
  ) {}

  @Get()
  @Roles(...OPERATORS)
  @ApiOperation({ summary: 'Backlog of your tenant (queued messages, due wakes, pending/dead deliveries, dead letters); platform admins also get per-queue BullMQ counts' })
  @Answers({ status: 200, description: 'The backlog (and, for a platform admin, the queue counts).', schema: queuesAnswer })
  async get(@CurrentUser() user: AdminUser): Promise<QueuesDto> {
    const platform = user.role === 'platform_admin';
    const [backlog, deadLetters, counts] = await Promise.all([
      this.backlog.count(user),
      this.deadLetters.count(user),
      platform ? this.queue.counts() : undefined,
    ]);
    return {
      scope: platform ? 'platform' : 'tenant',
      tenantId: tenantScope(user).tenantId ?? null,
      backlog: { ...backlog, deadLetters },
      ...(counts && { queues: [{ name: QUEUES.turns, counts }] }),
    };
  }
}

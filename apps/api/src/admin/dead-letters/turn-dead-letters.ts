import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { ResourceNotFoundError } from '../admin-errors';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { isUuid } from '../list-query/filters';
import { tenantScope } from '../tenant-scope';
import type { ListQuery } from '../list-query/list-query';
import { DeadLetterNotFailedError } from './dead-letter-errors';
import { isJobId, toDeadLetterDto, type DeadLetterDto } from './dead-letter.dto';
import { TurnQueueReader, type TurnJob } from './turn-queue-reader';

export interface DeadLetterPage {
  rows: DeadLetterDto[];
  total: number;
  /** True when the failed set holds more jobs than one scan reads (see SCAN_LIMIT). */
  truncated: boolean;
}

/**
 * Turn dead letters of the caller's tenant (every tenant's for a platform admin): failed jobs
 * of `{turns}`, found by the tenant in their data. A redrive retries the job itself, so the
 * worker runs it like any turn job: if its message was answered meanwhile (another job of the
 * session drained it), the job ends as `already-answered` and nothing is sent twice.
 */
@Injectable()
export class TurnDeadLetters {
  constructor(
    private readonly prisma: PrismaService,
    private readonly queue: TurnQueueReader,
  ) {}

  async list(user: AdminUser, query: ListQuery<(job: TurnJob) => boolean>): Promise<DeadLetterPage> {
    const mine = this.ownedBy(user);
    const { jobs, truncated } = await this.queue.failed((job) => mine(job) && query.where.every((keep) => keep(job)));
    const [sort] = Object.entries(query.orderBy[0]) as [string, 'asc' | 'desc'][];
    const sorted = jobs.sort((a, b) => compare(a, b, sort[0]) * (sort[1] === 'asc' ? 1 : -1));
    const page = sorted.slice(query.skip, query.skip + query.take);
    const statuses = await this.messageStatuses(user, page);
    return { rows: page.map((j) => toDeadLetterDto(j, statuses.get(j.data.messageId ?? '') ?? null)), total: jobs.length, truncated };
  }

  /** How many dead letters the tenant has (within the scan limit). */
  async count(user: AdminUser): Promise<number> {
    return (await this.queue.failed(this.ownedBy(user))).jobs.length;
  }

  async redrive(user: AdminUser, id: string): Promise<DeadLetterDto> {
    const job = await this.find(user, id);
    const state = await this.queue.state(job);
    if (state !== 'failed') throw new DeadLetterNotFailedError(id, state);
    const before = toDeadLetterDto(job, null);
    if (!(await this.queue.retry(job))) throw new DeadLetterNotFailedError(id, await this.queue.state(job));
    const tenantId = isUuid(job.data.tenantId) ? job.data.tenantId : null;
    await adminTransaction(this.prisma, user, (tx) =>
      recordAudit(tx, user, {
        action: 'dead-letter.redrive',
        entityType: 'turn-job',
        entityId: before.id,
        tenantId,
        before: { state: 'failed', attemptsMade: before.attemptsMade, failedReason: before.failedReason, messageId: before.messageId },
        after: { state: 'waiting', attemptsMade: 0 },
      }),
    );
    const statuses = await this.messageStatuses(user, [job]);
    return { ...before, attemptsMade: 0, failedAt: null, messageStatus: statuses.get(job.data.messageId ?? '') ?? null };
  }

  private async find(user: AdminUser, id: string): Promise<TurnJob> {
    const job = isJobId(id) ? await this.queue.job(id) : undefined;
    if (!job || !this.ownedBy(user)(job)) throw new ResourceNotFoundError('dead letter', id);
    return job;
  }

  /** The caller's tenant's jobs (tenantScope's rule: a platform admin sees all, or the tenant picked with X-Tenant-Id). */
  private ownedBy(user: AdminUser): (job: TurnJob) => boolean {
    const { tenantId } = tenantScope(user);
    if (tenantId === undefined) return () => true;
    return (job) => job.data?.tenantId === tenantId;
  }

  private async messageStatuses(user: AdminUser, jobs: TurnJob[]): Promise<Map<string, string>> {
    const ids = jobs.map((j) => j.data.messageId).filter(isUuid);
    if (ids.length === 0) return new Map();
    const rows = await adminTransaction(this.prisma, user, (tx) => tx.message.findMany({ where: { id: { in: ids } }, select: { id: true, status: true } }));
    return new Map(rows.map((m) => [m.id, m.status]));
  }
}

function compare(a: TurnJob, b: TurnJob, field: string): number {
  if (field === 'failedAt') return (a.finishedOn ?? 0) - (b.finishedOn ?? 0) || String(a.id).localeCompare(String(b.id));
  return String(a.id).localeCompare(String(b.id));
}

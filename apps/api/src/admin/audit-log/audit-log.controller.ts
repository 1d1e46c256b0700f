import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import { adminTransaction } from '../common/admin-transaction';
import type { FastifyReply } from 'fastify';
import { ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { listReply } from '../common/list-reply';
import { redactSecrets } from '../common/audit';
import { dateBoundFilter, isUuid, textEqualsFilter, uuidFilter } from '../list-query/filters';
import { parseListQuery, type ListSpec } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { z } from 'zod';
import { Answers } from '../../docs/answer.decorator';
import { selectOf, storedJson } from '../common/answer-schemas';

const listSpec: ListSpec<Prisma.AuditLogWhereInput> = {
  resource: 'audit-log',
  sortFields: ['createdAt', 'action', 'entityType', 'id'],
  defaultSort: ['createdAt', 'desc'],
  tieBreaker: 'id',
  filters: {
    id: uuidFilter('id'),
    tenantId: uuidFilter('tenantId'),
    actorUserId: uuidFilter('actorUserId'),
    entityType: textEqualsFilter('entityType'),
    entityId: textEqualsFilter('entityId'),
    action: textEqualsFilter('action'),
    createdAt_gte: dateBoundFilter('createdAt', 'gte'),
    createdAt_lte: dateBoundFilter('createdAt', 'lte'),
  },
};

const auditEntry = z.object({
  id: z.uuid(),
  /** Null for platform-level actions (creating a tenant). */
  tenantId: z.uuid().nullable(),
  actorUserId: z.uuid().nullable(),
  actorType: z.string().describe('user, api-key or system'),
  action: z.string().describe('e.g. agent.update, agent.publish, api-key.revoke'),
  entityType: z.string(),
  entityId: z.string().nullable(),
  before: storedJson,
  after: storedJson,
  requestId: z.string().nullable(),
  createdAt: z.date(),
  /** The user who acted (null for the system or a deleted user). */
  actor: z.object({ email: z.string(), name: z.string() }).nullable(),
});
type AuditEntry = z.infer<typeof auditEntry>;

const auditSelect = { ...selectOf(auditEntry.omit({ actor: true })), actor: { select: { email: true, name: true } } } as const;

/** Who changed what config and when, with before and after (secrets redacted when written). */
@ApiTags('console admin')
@Controller('v1/admin/audit-log')
@UseGuards(AdminAuthGuard)
export class AuditLogController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles('platform_admin', 'owner', 'admin', 'operator')
  @ApiOperation({ summary: 'Audit log of config changes, newest first; filter {entityType, entityId, action, actorUserId, createdAt_gte/lte}' })
  @Answers({ status: 200, description: 'One page of entries; the total is in Content-Range.', schema: z.array(auditEntry) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<AuditEntry[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, listSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await adminTransaction(this.prisma, user, (tx) =>
      Promise.all([tx.auditLog.findMany({ where: scoped, orderBy, skip, take, select: auditSelect }), tx.auditLog.count({ where: scoped })]),
    );
    return listReply(reply, 'audit-log', skip, rows.map(redactedOnRead), total);
  }

  @Get(':id')
  @Roles('platform_admin', 'owner', 'admin', 'operator')
  @ApiOperation({ summary: 'One audit entry' })
  @Answers({ status: 200, description: 'The entry.', schema: auditEntry })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<AuditEntry> {
    const row = isUuid(id) ? await this.prisma.auditLog.findFirst({ where: { id, ...tenantScope(user) }, select: auditSelect }) : null;
    if (!row) throw new ResourceNotFoundError('audit entry', id);
    return redactedOnRead(row);
  }
}

/** Entries written before a redaction rule existed (a webhook URL with user:pass@) are shown by today's rules. */
function redactedOnRead<R extends { before: unknown; after: unknown }>(row: R): R {
  return { ...row, before: redactSecrets(row.before), after: redactSecrets(row.after) };
}

import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AlreadyExistsError, ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { recordAudit } from '../common/audit';
import { budgetAmount, budgetOf } from '../common/budget-amount';
import { listReply } from '../common/list-reply';
import { isUniqueViolation } from '../common/prisma-errors';
import { enumFilter, isUuid, textContainsFilter, textEqualsFilter, uuidFilter } from '../list-query/filters';
import { parseListQuery, type ListSpec } from '../list-query/list-query';
import { Answers } from '../../docs/answer.decorator';
import { TenantStatuses } from '../../tenant-status/tenant-statuses';

const tenantSelect = {
  id: true,
  name: true,
  slug: true,
  status: true,
  monthlyLlmCallQuota: true,
  monthlyTokenQuota: true,
  queueWeight: true,
  monthlyBudgetMicros: true,
  createdAt: true,
  updatedAt: true,
} as const;
type TenantRow = Prisma.TenantGetPayload<{ select: typeof tenantSelect }>;

/** A tenant as answers show it. */
const tenantRecord = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  /** A suspended tenant's channels, console users and turns are refused (docs/security.md). */
  status: z.enum(['active', 'suspended']),
  /** LLM calls a month; null = no quota. */
  monthlyLlmCallQuota: z.number().int().nullable(),
  /** Tokens a month; null = no quota. */
  monthlyTokenQuota: z.number().int().nullable(),
  /** Its share of the turn queue against other tenants (1-100). */
  queueWeight: z.number().int(),
  monthlyBudget: z.string().nullable().describe('USD a month as an exact decimal string ("250.000000"); null = no budget (docs/cost.md).'),
  createdAt: z.date(),
  updatedAt: z.date(),
});
type TenantRecord = z.infer<typeof tenantRecord>;

/** Quotas are BIGINT columns; JSON has no bigint, and quotas fit a double exactly. */
const toDto = ({ monthlyBudgetMicros, ...t }: TenantRow): TenantRecord => ({
  ...t,
  monthlyLlmCallQuota: t.monthlyLlmCallQuota === null ? null : Number(t.monthlyLlmCallQuota),
  monthlyTokenQuota: t.monthlyTokenQuota === null ? null : Number(t.monthlyTokenQuota),
  /** USD a month as an exact decimal string ("250.000000"); null = no budget (docs/cost.md). */
  monthlyBudget: budgetOf(monthlyBudgetMicros),
});
const toDb = (q: number | null | undefined) => (q === undefined ? undefined : q === null ? null : BigInt(q));

const tenantsListSpec: ListSpec<Prisma.TenantWhereInput> = {
  resource: 'tenants',
  sortFields: ['name', 'slug', 'createdAt', 'id'],
  defaultSort: ['name', 'asc'],
  tieBreaker: 'id',
  filters: { id: uuidFilter('id'), slug: textEqualsFilter('slug'), status: enumFilter('status', ['active', 'suspended'] as const), q: textContainsFilter('name') },
};

const name = z.string().trim().min(1).max(200);
const slug = z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'a slug is lowercase letters, digits and inner dashes (at most 63)');
/** Per calendar month (UTC); null = unlimited. */
const quota = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional();
/** Share of the workers when several tenants have messages waiting (docs/fairness.md). */
const queueWeight = z.number().int().min(1).max(100).optional();
/** `suspended`: its channels, widget visitors and console users are refused, its queued turns not run (docs/security.md). */
const status = z.enum(['active', 'suspended']).optional();
const createBody = z.strictObject({ name, slug, status, monthlyLlmCallQuota: quota, monthlyTokenQuota: quota, monthlyBudget: budgetAmount, queueWeight });
// react-admin sends the record back: read-only keys dropped.
const updateBody = z.object({ name: name.optional(), slug: slug.optional(), status, monthlyLlmCallQuota: quota, monthlyTokenQuota: quota, monthlyBudget: budgetAmount, queueWeight });
type TenantBody = { name?: string; slug?: string; status?: 'active' | 'suspended'; monthlyLlmCallQuota?: number | null; monthlyTokenQuota?: number | null; monthlyBudget?: bigint | null; queueWeight?: number };
const tenantData = (b: TenantBody) => ({
  name: b.name,
  slug: b.slug,
  status: b.status,
  monthlyLlmCallQuota: toDb(b.monthlyLlmCallQuota),
  monthlyTokenQuota: toDb(b.monthlyTokenQuota),
  queueWeight: b.queueWeight,
  monthlyBudgetMicros: b.monthlyBudget,
});

/** Tenants are the platform's business: only platform admins list and manage them. */
@ApiTags('console admin')
@Controller('v1/admin/tenants')
@UseGuards(AdminAuthGuard)
export class TenantsController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly statuses: TenantStatuses,
  ) {}

  @Get()
  @Roles('platform_admin')
  @ApiOperation({ summary: 'Tenants (platform admins only), simple-REST' })
  @Answers({ status: 200, description: 'One page of tenants; the total is in Content-Range.', schema: z.array(tenantRecord) })
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<TenantRecord[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, tenantsListSpec);
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.tenant.findMany({ where: { AND: where }, orderBy, skip, take, select: tenantSelect }),
      this.prisma.tenant.count({ where: { AND: where } }),
    ]);
    return listReply(reply, 'tenants', skip, rows.map(toDto), total);
  }

  @Get(':id')
  @Roles('platform_admin')
  @ApiOperation({ summary: 'One tenant (platform admins only)' })
  @Answers({ status: 200, description: 'The tenant.', schema: tenantRecord })
  async getOne(@Param('id') id: string): Promise<TenantRecord> {
    return toDto(await this.find(id));
  }

  @Post()
  @ApiResponse({ status: 409, description: '`already-exists`: a tenant with this slug exists.' })
  @Roles('platform_admin')
  @ApiOperation({ summary: 'Create a tenant (platform admins only)' })
  @Answers({ status: 201, description: 'The new tenant.', schema: tenantRecord })
  async create(@CurrentUser() user: AdminUser, @Body(new ZodValidationPipe(createBody)) body: z.infer<typeof createBody>): Promise<TenantRecord> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const row = toDto(await tx.tenant.create({ data: { ...tenantData(body), name: body.name, slug: body.slug }, select: tenantSelect }));
        await recordAudit(tx, user, { action: 'tenant.create', entityType: 'tenant', entityId: row.id, tenantId: null, after: row });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError('tenant with the slug', body.slug);
      throw err;
    }
  }

  @Put(':id')
  @ApiResponse({ status: 409, description: '`already-exists`: a tenant with this slug exists.' })
  @Roles('platform_admin')
  @ApiOperation({ summary: 'Rename a tenant, change its slug, status (active or suspended), monthly quotas or queue weight (platform admins only)' })
  @Answers({ status: 200, description: 'The saved tenant.', schema: tenantRecord })
  async update(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(updateBody)) body: z.infer<typeof updateBody>): Promise<TenantRecord> {
    try {
      const updated = await this.prisma.$transaction(async (tx) => {
        const before = toDto(await this.find(id, tx));
        const after = toDto(await tx.tenant.update({ where: { id }, data: tenantData(body), select: tenantSelect }));
        await recordAudit(tx, user, { action: 'tenant.update', entityType: 'tenant', entityId: id, tenantId: null, before, after });
        // A suspension or reactivation also gets its own entry, easy to find in the log.
        if (before.status !== after.status) {
          const action = after.status === 'suspended' ? 'tenant.suspend' : 'tenant.reactivate';
          await recordAudit(tx, user, { action, entityType: 'tenant', entityId: id, tenantId: null, before: { status: before.status }, after: { status: after.status } });
        }
        return after;
      });
      this.statuses.forget(id);
      return updated;
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError('tenant with the slug', body.slug ?? '');
      throw err;
    }
  }

  @Delete(':id')
  @Roles('platform_admin')
  @ApiOperation({ summary: 'Delete a tenant and everything it owns (platform admins only)' })
  @Answers({ status: 200, description: 'The deleted tenant.', schema: tenantRecord })
  async remove(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<TenantRecord> {
    return this.prisma.$transaction(async (tx) => {
      const before = toDto(await this.find(id, tx));
      // Agents are RESTRICTed by their channels, sessions and turns: remove those first, then
      // the tenant cascades to the rest.
      await tx.turn.deleteMany({ where: { tenantId: id } });
      await tx.session.deleteMany({ where: { tenantId: id } });
      await tx.channel.deleteMany({ where: { tenantId: id } });
      await tx.tenant.delete({ where: { id } });
      // Platform-level entry: the tenant's own audit rows go with it.
      await recordAudit(tx, user, { action: 'tenant.delete', entityType: 'tenant', entityId: id, tenantId: null, before });
      return before;
    });
  }

  private async find(id: string, db: Prisma.TransactionClient = this.prisma) {
    const row = isUuid(id) ? await db.tenant.findUnique({ where: { id }, select: tenantSelect }) : null;
    if (!row) throw new ResourceNotFoundError('tenant', id);
    return row;
  }
}

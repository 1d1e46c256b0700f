import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import { monthToDateUsage, quotaState, type QuotaState } from '../../limits/monthly-usage';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { ResourceNotFoundError } from '../admin-errors';
import { targetTenant } from '../common/tenant-target';
import { PrismaService, type Prisma } from '@switchboard/db';
import { adminTransaction } from '../common/admin-transaction';
import type { FastifyReply } from 'fastify';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { READERS } from '../common/admin-roles';
import { listReply } from '../common/list-reply';
import { uuidFilter } from '../list-query/filters';
import { FilterValueError, parseListQuery, type ListSpec } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { addSums, emptySums, toUsageDto, type UsageDto } from './usage-row';

/** A calendar day (YYYY-MM-DD, UTC) bound on the roll-up's `day`. */
function dayBound(bound: 'gte' | 'lte') {
  return (value: unknown): Prisma.UsageDailyWhereInput => {
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      throw new FilterValueError('must be a day as YYYY-MM-DD.');
    }
    return { day: { [bound]: new Date(`${value}T00:00:00Z`) } };
  };
}

const usageListSpec: ListSpec<Prisma.UsageDailyWhereInput> = {
  resource: 'usage',
  sortFields: ['day', 'turns', 'llmCalls', 'inputTokens', 'outputTokens', 'failedTurns', 'id'],
  defaultSort: ['day', 'desc'],
  tieBreaker: 'id',
  filters: {
    tenantId: uuidFilter('tenantId'),
    agentId: uuidFilter('agentId'),
    from: dayBound('gte'),
    to: dayBound('lte'),
  },
};

export interface UsageDayDto extends UsageDto {
  /** `<agentId>:<day>`: one row per agent and day. */
  id: string;
  tenantId: string;
  agentId: string;
  day: string;
}

/**
 * Usage by tenant, agent, day and outcome code, read from the daily roll-ups (UsageDaily and
 * UsageOutcomeDaily) that the worker maintains in each turn's commit transaction: the cost of
 * an answer depends on days × agents, never on the number of turns.
 */
@ApiTags('console admin')
@Controller('v1/admin/usage')
@UseGuards(AdminAuthGuard)
export class UsageController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: 'Daily usage per agent: ?filter={"agentId":..,"from":"2026-12-01","to":"2026-12-31"}; Content-Range' })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<UsageDayDto[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, usageListSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await adminTransaction(this.prisma, user, (tx) =>
      Promise.all([tx.usageDaily.findMany({ where: scoped, orderBy, skip, take }), tx.usageDaily.count({ where: scoped })]),
    );
    const outcomes = rows.length
      ? await this.prisma.usageOutcomeDaily.findMany({
          where: { OR: rows.map((r) => ({ tenantId: r.tenantId, agentId: r.agentId, day: r.day })) },
        })
      : [];
    const key = (agentId: string, day: Date) => `${agentId}:${day.toISOString().slice(0, 10)}`;
    const byKey = new Map<string, Record<string, number>>();
    for (const o of outcomes) {
      const k = key(o.agentId, o.day);
      byKey.set(k, { ...byKey.get(k), [o.code]: o.turns });
    }
    const dtos = rows.map((r) => ({
      id: key(r.agentId, r.day),
      tenantId: r.tenantId,
      agentId: r.agentId,
      day: r.day.toISOString().slice(0, 10),
      ...toUsageDto(r, byKey.get(key(r.agentId, r.day)) ?? {}),
    }));
    return listReply(reply, 'usage', skip, dtos, total);
  }

  @Get('summary')
  @Roles(...READERS)
  @ApiOperation({ summary: 'Totals over the filtered days and agents (same filter as the list): turns, llmCalls, tokens, latency percentiles, outcomes' })
  async summary(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>): Promise<UsageDto & { days: number }> {
    const { where } = parseListQuery(query, usageListSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const rows = await this.prisma.usageDaily.findMany({ where: scoped });
    const outcomeRows = await this.prisma.usageOutcomeDaily.groupBy({
      by: ['code'],
      where: scoped as Prisma.UsageOutcomeDailyWhereInput,
      _sum: { turns: true },
    });
    const outcomes = Object.fromEntries(outcomeRows.map((o) => [o.code, o._sum.turns ?? 0]));
    const days = new Set(rows.map((r) => r.day.toISOString().slice(0, 10))).size;
    return { days, ...toUsageDto(rows.reduce(addSums, emptySums()), outcomes) };
  }

  @Get('quota')
  @Roles(...READERS)
  @ApiOperation({ summary: "This month's model calls and tokens against the tenant's quotas (platform admins: ?tenantId=)" })
  async quota(
    @CurrentUser() user: AdminUser,
    @Query(new ZodValidationPipe(z.strictObject({ tenantId: z.string().optional() }), 'query')) query: { tenantId?: string },
  ): Promise<QuotaState> {
    const tenantId = targetTenant(user, query.tenantId);
    const tenant = await this.prisma.tenant.findUnique({ where: { id: tenantId }, select: { monthlyLlmCallQuota: true, monthlyTokenQuota: true } });
    if (!tenant) throw new ResourceNotFoundError('tenant', tenantId);
    return quotaState(await monthToDateUsage(this.prisma, tenantId), tenant);
  }
}

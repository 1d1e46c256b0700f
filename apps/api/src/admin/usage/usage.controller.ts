import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { ResourceNotFoundError } from '../admin-errors';
import { targetTenant } from '../common/tenant-target';
import {
  addBuckets,
  monthToDateAgentBudgets,
  monthToDateUsage,
  PrismaService,
  quotaState,
  readConsoleUsage,
  type Prisma,
  type QuotaState,
} from '@switchboard/db';
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
import { parseFailureWindow, turnFailuresByCode, type TurnFailureDto } from './turn-failures.query';
import { exactSummaryLatency } from '../live-usage/summary-latency';
import { addSums, emptySums, toUsageDto, usageTotals, type UsageSums } from './usage-row';
import { Answers } from '../../docs/answer.decorator';

/** A calendar day (YYYY-MM-DD, UTC) bound on the roll-up's `day`. */
function dayBound(bound: 'gte' | 'lte') {
  return (value: unknown): Prisma.UsageDailyWhereInput => {
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      throw new FilterValueError('must be a day as YYYY-MM-DD.');
    }
    // Postgres has no year 0 (the only four-digit year it cannot store).
    if (value.startsWith('0000')) throw new FilterValueError('must be a day between the years 1 and 9999.');
    return { day: { [bound]: new Date(`${value}T00:00:00Z`) } };
  };
}

const usageListSpec: ListSpec<Prisma.UsageDailyWhereInput> = {
  resource: 'usage',
  sortFields: ['day', 'turns', 'llmCalls', 'inputTokens', 'outputTokens', 'failedTurns', 'costMicros', 'id'],
  defaultSort: ['day', 'desc'],
  tieBreaker: 'id',
  filters: {
    tenantId: uuidFilter('tenantId'),
    agentId: uuidFilter('agentId'),
    from: dayBound('gte'),
    to: dayBound('lte'),
  },
};

/** The roll-up columns the list sums over a (tenant, agent, day)'s slots. */
const SUMMED = {
  turns: true,
  deferredTurns: true,
  failedTurns: true,
  llmCalls: true,
  inputTokens: true,
  outputTokens: true,
  cachedInputTokens: true,
  queueWaitMs: true,
  modelMs: true,
  toolsMs: true,
  commitMs: true,
  totalMs: true,
  costMicros: true,
  unpricedCalls: true,
  completedRuns: true,
} as const;

type Summed = { [K in keyof typeof SUMMED]: UsageSums[K] | null };

function sumsOf(s: Summed, latencyBuckets: number[]): UsageSums {
  return {
    turns: s.turns ?? 0,
    deferredTurns: s.deferredTurns ?? 0,
    failedTurns: s.failedTurns ?? 0,
    llmCalls: s.llmCalls ?? 0n,
    inputTokens: s.inputTokens ?? 0n,
    outputTokens: s.outputTokens ?? 0n,
    cachedInputTokens: s.cachedInputTokens ?? 0n,
    queueWaitMs: s.queueWaitMs ?? 0n,
    modelMs: s.modelMs ?? 0n,
    toolsMs: s.toolsMs ?? 0n,
    commitMs: s.commitMs ?? 0n,
    totalMs: s.totalMs ?? 0n,
    latencyBuckets,
    costMicros: s.costMicros ?? 0n,
    unpricedCalls: s.unpricedCalls ?? 0n,
    completedRuns: s.completedRuns ?? 0n,
  };
}

type GroupOrder = { day: Prisma.SortOrder } | { agentId: Prisma.SortOrder } | { _sum: Prisma.UsageDailySumOrderByAggregateInput };

/** The list's sort on the grouped rows: `day` as is, `id` (agent:day) by agent then day, figures by their sum. */
function groupOrder(orderBy: Record<string, Prisma.SortOrder>[]): GroupOrder[] {
  return orderBy.flatMap((o) =>
    Object.entries(o).flatMap(([field, dir]): GroupOrder[] => {
      if (field === 'day') return [{ day: dir }];
      if (field === 'id') return [{ agentId: dir }, { day: dir }];
      return [{ _sum: { [field]: dir } }];
    }),
  );
}

const key = (agentId: string, day: Date) => `${agentId}:${day.toISOString().slice(0, 10)}`;

/** One row per agent and day (the roll-up's slots summed). */
const usageDay = usageTotals.extend({
  /** `<agentId>:<day>`. */
  id: z.string(),
  tenantId: z.uuid(),
  agentId: z.uuid(),
  day: z.iso.date(),
});
export type UsageDayDto = z.infer<typeof usageDay>;

const turnFailureRow = z.object({
  /** `<status>:<code>`, one row each. */
  id: z.string(),
  status: z.enum(['failed', 'deferred']),
  /** The outcome code (`provider-auth`, `agent-unavailable`…); null when the outcome had none. */
  code: z.string().nullable(),
  turns: z.number().int(),
  /** Agents with such turns in the range. */
  agents: z.number().int(),
  lastAt: z.date(),
  /** The newest such turn: an example to open. */
  lastTurnId: z.uuid(),
});

const used = z.object({ used: z.number(), quota: z.number().nullable() });
/** This month's usage against the tenant's quotas. */
const quotaAnswer = z.object({
  llmCalls: used,
  tokens: used,
  /** Of `used`, what the console's runs (playground, live conversation tests) spent. */
  console: z.object({ llmCalls: z.number(), tokens: z.number() }),
  /** Micros spent and the monthly budget in micros (null: none). */
  cost: used,
  resetsAt: z.date(),
  /** Which quota is spent, if any. */
  exceeded: z.enum(['llmCalls', 'tokens', 'cost']).nullable(),
  /** The money budget is at 80% or more (and not yet spent). */
  budgetWarning: z.boolean(),
  /** The agents with a monthly budget of their own: micros spent against it this month. */
  agents: z.array(
    z.object({ agentId: z.uuid(), name: z.string(), used: z.number(), quota: z.number(), warning: z.boolean(), exceeded: z.boolean() }),
  ),
});

/**
 * Usage by tenant, agent, day and outcome code, read from the daily roll-ups (UsageDaily and
 * UsageOutcomeDaily) that the worker maintains in each turn's commit transaction: the cost of
 * an answer depends on days × agents, never on the number of turns. Customer traffic only; the
 * console's runs (playground, live tests) are the summary's separate `console` line.
 */
const consoleFigures = z.object({
  turns: z.number().int().min(0),
  llmCalls: z.number().int().min(0),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  cachedInputTokens: z.number().int().min(0),
});
const usageSummary = usageTotals.extend({
  days: z.number().int().min(0).describe('Days with usage in the filter'),
  console: z.object({ playground: consoleFigures, 'conversation-test': consoleFigures }).describe('The console runs: playground turns and live conversation tests, never customer usage'),
  latencyMethod: z.enum(['exact', 'bucket-upper-bound']).describe('`exact`: percentiles from the turns (short ranges); else the latency bucket upper bounds'),
});

@ApiTags('console admin')
@Controller('v1/admin/usage')
@UseGuards(AdminAuthGuard)
export class UsageController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: 'Daily usage per agent: ?filter={"agentId":..,"from":"2026-12-01","to":"2026-12-31"}; Content-Range' })
  @Answers({ status: 200, description: 'One page of agent-days; the total is in Content-Range.', schema: z.array(usageDay) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<UsageDayDto[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, usageListSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const by = ['tenantId', 'agentId', 'day'] as const; // a (tenant, agent, day) has one row per slot
    const [page, all] = await adminTransaction(this.prisma, user, (tx) =>
      Promise.all([
        tx.usageDaily.groupBy({ by: [...by], where: scoped, orderBy: groupOrder(orderBy), skip, take, _sum: SUMMED }),
        tx.usageDaily.groupBy({ by: [...by], where: scoped }),
      ]),
    );
    if (page.length === 0) return listReply(reply, 'usage', skip, [], all.length);
    // The page's buckets and outcomes in one range read each (its agents, its first to last day),
    // side by side on two pooled connections; tenantScope keeps them to the user's tenant.
    const days = page.map((g) => g.day.getTime());
    const pageRange = {
      ...tenantScope(user),
      agentId: { in: [...new Set(page.map((g) => g.agentId))] },
      day: { gte: new Date(Math.min(...days)), lte: new Date(Math.max(...days)) },
    };
    const [slots, outcomes] = await Promise.all([
      this.prisma.usageDaily.findMany({ where: pageRange, select: { agentId: true, day: true, latencyBuckets: true } }),
      this.prisma.usageOutcomeDaily.findMany({ where: pageRange, select: { agentId: true, day: true, code: true, turns: true } }),
    ]);
    const bucketsByKey = new Map<string, number[]>();
    for (const r of slots) bucketsByKey.set(key(r.agentId, r.day), addBuckets(bucketsByKey.get(key(r.agentId, r.day)) ?? [], r.latencyBuckets));
    const outcomesByKey = new Map<string, Record<string, number>>();
    for (const o of outcomes) {
      const codes = outcomesByKey.get(key(o.agentId, o.day)) ?? {};
      codes[o.code] = (codes[o.code] ?? 0) + o.turns;
      outcomesByKey.set(key(o.agentId, o.day), codes);
    }
    const rows = page.map((g) => ({
      id: key(g.agentId, g.day),
      tenantId: g.tenantId,
      agentId: g.agentId,
      day: g.day.toISOString().slice(0, 10),
      ...toUsageDto(sumsOf(g._sum, bucketsByKey.get(key(g.agentId, g.day)) ?? []), outcomesByKey.get(key(g.agentId, g.day)) ?? {}),
    }));
    return listReply(reply, 'usage', skip, rows, all.length);
  }

  @Get('summary')
  @Roles(...READERS)
  @ApiOperation({
    summary:
      'Totals over the filtered days and agents (same filter as the list): customer turns, llmCalls, tokens, latency percentiles, outcomes; `console`: the playground and live conversation tests, a line of their own',
  })
  @Answers({ status: 200, description: 'Totals over `days` days with usage.', schema: usageSummary })
  async summary(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>): Promise<z.infer<typeof usageSummary>> {
    const { where } = parseListQuery(query, usageListSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    // The list's filters (tenant, agent, day) read the same on the three roll-ups.
    const [rows, outcomeRows, consoleRuns] = await Promise.all([
      this.prisma.usageDaily.findMany({ where: scoped }),
      this.prisma.usageOutcomeDaily.groupBy({ by: ['code'], where: scoped as Prisma.UsageOutcomeDailyWhereInput, _sum: { turns: true } }),
      readConsoleUsage(this.prisma, scoped as Prisma.ConsoleUsageDailyWhereInput),
    ]);
    const outcomes = Object.fromEntries(outcomeRows.map((o) => [o.code, o._sum.turns ?? 0]));
    const days = new Set(rows.map((r) => r.day.toISOString().slice(0, 10))).size;
    const dto = toUsageDto(rows.reduce(addSums, emptySums()), outcomes);
    // The roll-up's histogram only bounds a percentile; a short range reads the turns instead.
    const exact = await exactSummaryLatency(this.prisma, user, query);
    return { days, ...dto, console: consoleRuns, ...(exact ? { latencyMs: { ...dto.latencyMs, ...exact }, latencyMethod: 'exact' } : { latencyMethod: 'bucket-upper-bound' }) };
  }

  @Get('failures')
  @Roles(...READERS)
  @ApiOperation({
    summary:
      'Failed and deferred turns by outcome code over the filtered days (same filter as the list, at most 92 days), newest example turn per code; read from Turn rows',
  })
  @Answers({ status: 200, description: 'Failed and deferred turns by outcome code, most first.', schema: z.array(turnFailureRow) })
  async failures(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>): Promise<TurnFailureDto[] & z.infer<typeof turnFailureRow>[]> {
    const window = parseFailureWindow(query);
    return adminTransaction(this.prisma, user, (tx) => turnFailuresByCode(tx, tenantScope(user).tenantId, window));
  }

  @Get('quota')
  @Roles(...READERS)
  @ApiOperation({
    summary:
      "This month's model calls, tokens and cost (customer turns and console runs) against the tenant's quotas, `console` the console's share, `agents` the agents with a budget of their own (platform admins: ?tenantId=)",
  })
  @Answers({ status: 200, description: 'Usage so far this month against the quotas.', schema: quotaAnswer })
  async quota(
    @CurrentUser() user: AdminUser,
    @Query(new ZodValidationPipe(z.strictObject({ tenantId: z.string().optional() }), 'query')) query: { tenantId?: string },
  ): Promise<QuotaState & z.infer<typeof quotaAnswer>> {
    const tenantId = targetTenant(user, query.tenantId);
    const tenant = await this.prisma.tenant.findUnique({ where: { id: tenantId }, select: { monthlyLlmCallQuota: true, monthlyTokenQuota: true, monthlyBudgetMicros: true } });
    if (!tenant) throw new ResourceNotFoundError('tenant', tenantId);
    const [usage, agents] = await Promise.all([monthToDateUsage(this.prisma, tenantId), monthToDateAgentBudgets(this.prisma, tenantId)]);
    return { ...quotaState(usage, tenant), agents };
  }
}

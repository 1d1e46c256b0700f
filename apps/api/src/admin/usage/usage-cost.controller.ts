import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Header, Query, UseGuards } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import { z } from 'zod';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { READERS } from '../common/admin-roles';
import { tenantScope } from '../tenant-scope';
import { COST_DIMENSIONS, costRows, CSV_HEADER, csvLine, type CostDimension, type CostRowDto } from './cost-breakdown';
import { Answers } from '../../docs/answer.decorator';

/** The cost roll-up grouped by one dimension (docs/cost.md). */
const costBreakdownAnswer = z.object({
  by: z.enum(Object.keys(COST_DIMENSIONS) as [CostDimension, ...CostDimension[]]),
  /** Micro-units, a decimal string. */
  totalMicros: z.string().regex(/^-?\d+$/),
  rows: z.array(
    z.object({
      /** The group's key columns (agentId, provider and model, part/flowId/stepId, …). */
      key: z.record(z.string(), z.string()),
      label: z.string(),
      llmCalls: z.number().int(),
      inputTokens: z.number().int(),
      cachedInputTokens: z.number().int(),
      outputTokens: z.number().int(),
      /** Micro-units, a decimal string (bigint on the server). */
      costMicros: z.string().regex(/^-?\d+$/),
      unpricedCalls: z.number().int(),
      /** This group's share of the total cost, 0..1 (0 when the total is 0): for charts only. */
      share: z.number().min(0).max(1),
    }),
  ),
});

// Postgres has no year 0: a day between the years 1 and 9999.
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD')
  .refine((v) => !v.startsWith('0000') && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'a day between the years 1 and 9999');
const range = { from: day.optional(), to: day.optional(), agentId: z.uuid().optional() };
const breakdownQuery = z.strictObject({ by: z.enum(Object.keys(COST_DIMENSIONS) as [CostDimension, ...CostDimension[]]), ...range });
const exportQuery = z.strictObject(range);

const SUMS = { llmCalls: true, inputTokens: true, cachedInputTokens: true, outputTokens: true, costMicros: true, unpricedCalls: true } as const;

/**
 * Cost by agent, model, channel, flow, step or day (docs/cost.md), read from the UsageCostDaily
 * roll-up each turn's commit keeps: days × groups rows, never turns. The CSV export is the
 * roll-up itself, one line per day, agent, channel, model and step.
 */
@ApiTags('console admin')
@Controller('v1/admin/usage-cost')
@UseGuards(AdminAuthGuard)
export class UsageCostController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: 'Cost grouped ?by=agent|model|channel|flow|step|day over ?from=&to= (YYYY-MM-DD, UTC) and ?agentId=' })
  @Answers({ status: 200, description: 'Cost per group over the range, biggest first.', schema: costBreakdownAnswer })
  async breakdown(
    @CurrentUser() user: AdminUser,
    @Query(new ZodValidationPipe(breakdownQuery, 'query')) q: z.infer<typeof breakdownQuery>,
  ): Promise<{ by: CostDimension; totalMicros: string; rows: CostRowDto[] } & z.infer<typeof costBreakdownAnswer>> {
    const groups = await this.prisma.usageCostDaily.groupBy({ by: [...COST_DIMENSIONS[q.by]], where: this.where(user, q), _sum: SUMS });
    const names = await this.names(groups.flatMap((g) => [('agentId' in g ? g.agentId : undefined), ('channelId' in g ? g.channelId : undefined)]));
    return { by: q.by, ...costRows(q.by, groups as never, names) };
  }

  @Get('export')
  @Roles(...READERS)
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="switchboard-cost.csv"')
  @ApiProduces('text/csv')
  @ApiOperation({ summary: 'The cost roll-up as CSV: one line per day, agent, channel, model, flow and step' })
  async export(@CurrentUser() user: AdminUser, @Query(new ZodValidationPipe(exportQuery, 'query')) q: z.infer<typeof exportQuery>): Promise<string> {
    const rows = await this.prisma.usageCostDaily.groupBy({
      by: ['day', 'agentId', 'channelId', 'provider', 'model', 'part', 'flowId', 'stepId'],
      where: this.where(user, q),
      _sum: SUMS,
      orderBy: [{ day: 'asc' }, { agentId: 'asc' }, { channelId: 'asc' }, { provider: 'asc' }, { model: 'asc' }, { part: 'asc' }, { flowId: 'asc' }, { stepId: 'asc' }],
    });
    const names = await this.names(rows.flatMap((r) => [r.agentId, r.channelId]));
    return [CSV_HEADER.join(','), ...rows.map((r) => csvLine(r, names))].join('\r\n') + '\r\n';
  }

  private where(user: AdminUser, q: { from?: string; to?: string; agentId?: string }): Prisma.UsageCostDailyWhereInput {
    return {
      ...tenantScope(user),
      ...(q.agentId && { agentId: q.agentId }),
      ...((q.from || q.to) && { day: { ...(q.from && { gte: new Date(`${q.from}T00:00:00Z`) }), ...(q.to && { lte: new Date(`${q.to}T00:00:00Z`) }) } }),
    };
  }

  /** Names of the agents and channels among `ids` (the rows are already the user's tenant's). */
  private async names(ids: (string | undefined)[]): Promise<Map<string, string>> {
    const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
    if (wanted.length === 0) return new Map();
    const [agents, channels] = await Promise.all([
      this.prisma.agent.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true } }),
      this.prisma.channel.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true } }),
    ]);
    return new Map([...agents, ...channels].map((r) => [r.id, r.name]));
  }
}

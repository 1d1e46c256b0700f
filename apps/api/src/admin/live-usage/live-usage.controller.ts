import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { z } from 'zod';
import { Answers } from '../../docs/answer.decorator';
import { BadRequestError } from '../../common/errors/http-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { READERS } from '../common/admin-roles';
import { adminTransaction } from '../common/admin-transaction';
import { rangeLatency } from './range-latency';
import { figuresByChannel } from './turn-figures';
import { MAX_EXACT_DAYS, parseUsageRange } from './usage-range';

const ms = z.number().min(0).nullable();
const count = z.number().int().min(0);

/** GET usage/latency (RangeLatency), as the OpenAPI document declares it. */
const rangeLatencyAnswer = z.object({
  method: z.enum(['exact', 'bucket-upper-bound']).describe('`exact`: percentile_cont over the turns; else the roll-up histogram bucket upper bounds'),
  bucketBoundsMs: z.array(z.number()).readonly().optional().describe('The histogram bounds when method is bucket-upper-bound'),
  turns: count,
  p50: ms,
  p95: ms,
  p99: ms,
  byDay: z.array(z.object({ day: z.string(), turns: count, p50: z.number(), p95: z.number() })),
});

/** GET usage/channels (ChannelFigures per channel). */
const channelFiguresAnswer = z.array(
  z.object({
    channelId: z.uuid(),
    channelName: z.string(),
    kind: z.string(),
    turns: count,
    llmCalls: count,
    inputTokens: count,
    outputTokens: count,
    failedTurns: count,
    p50: ms,
    p95: ms,
  }),
);

/**
 * The dashboard's turn-level figures: true latency percentiles (from the turns, not the
 * roll-up's histogram) and the per-channel breakdown. Both read turn rows, so both are limited
 * to short ranges; the dashboard polls them.
 */
@ApiTags('console admin')
@Controller('v1/admin/usage')
@UseGuards(AdminAuthGuard)
export class LiveUsageController {
  constructor(private readonly prisma: PrismaService) {}

  @Get('latency')
  @Roles(...READERS)
  @ApiOperation({ summary: `Turn latency p50/p95/p99 over ?filter={"from","to","agentId"}, overall and per day: exact up to ${MAX_EXACT_DAYS} days, else bucket upper bounds (method says which)` })
  @Answers({ status: 200, description: 'Percentiles overall and per day, and how they were computed.', schema: rangeLatencyAnswer })
  async latency(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>): Promise<z.infer<typeof rangeLatencyAnswer>> {
    const range = parseUsageRange(user, query);
    return adminTransaction(this.prisma, user, (tx) => rangeLatency(tx, range));
  }

  @Get('channels')
  @Roles(...READERS)
  @ApiOperation({ summary: `Turns, calls, tokens, failures and exact latency per channel over ?filter={"from","to","agentId"} (at most ${MAX_EXACT_DAYS} days)` })
  @Answers({ status: 200, description: 'One row per channel with turns in the range.', schema: channelFiguresAnswer })
  @ApiResponse({ status: 400, description: '`range-too-long`: the breakdown reads turns, at most a few days at a time.' })
  async channels(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>): Promise<z.infer<typeof channelFiguresAnswer>> {
    const range = parseUsageRange(user, query);
    if (range.days > MAX_EXACT_DAYS) {
      throw new BadRequestError('range-too-long', `The per-channel breakdown reads turns: pick at most ${MAX_EXACT_DAYS} days (got ${range.days}).`, { maxDays: MAX_EXACT_DAYS });
    }
    return adminTransaction(this.prisma, user, (tx) => figuresByChannel(tx, range));
  }
}

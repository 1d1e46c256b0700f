import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { BadRequestError } from '../../common/errors/http-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { READERS } from '../common/admin-roles';
import { adminTransaction } from '../common/admin-transaction';
import { rangeLatency, type RangeLatency } from './range-latency';
import { figuresByChannel, type ChannelFigures } from './turn-figures';
import { MAX_EXACT_DAYS, parseUsageRange } from './usage-range';

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
  async latency(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>): Promise<RangeLatency> {
    const range = parseUsageRange(user, query);
    return adminTransaction(this.prisma, user, (tx) => rangeLatency(tx, range));
  }

  @Get('channels')
  @Roles(...READERS)
  @ApiOperation({ summary: `Turns, calls, tokens, failures and exact latency per channel over ?filter={"from","to","agentId"} (at most ${MAX_EXACT_DAYS} days)` })
  async channels(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>): Promise<ChannelFigures[]> {
    const range = parseUsageRange(user, query);
    if (range.days > MAX_EXACT_DAYS) {
      throw new BadRequestError('range-too-long', `The per-channel breakdown reads turns: pick at most ${MAX_EXACT_DAYS} days (got ${range.days}).`, { maxDays: MAX_EXACT_DAYS });
    }
    return adminTransaction(this.prisma, user, (tx) => figuresByChannel(tx, range));
  }
}

import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { ALL_ROLES, Roles } from '../auth/roles.decorator';
import { isUuid } from '../list-query/filters';
import { contentRange, parseListQuery } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { toTurnDetail, toTurnDto, turnDetail, turnDetailSelect, turnRecord, turnSelect, type TurnDetailDto, type TurnDto } from './turn.dto';
import { turnsListSpec } from './turns.list-spec';
import { Answers } from '../../docs/answer.decorator';
import { z } from 'zod';

@ApiTags('console admin')
@Controller('v1/admin/turns')
@UseGuards(AdminAuthGuard)
export class TurnsController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles(...ALL_ROLES)
  @ApiOperation({ summary: 'Turns with their llmCalls, tokens, latency and outcome codes, simple-REST; filter={"sessionId":"..."}' })
  @Answers({ status: 200, description: 'One page of turns; the total is in Content-Range.', schema: z.array(turnRecord) })
  async list(
    @CurrentUser() user: AdminUser,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TurnDto[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, turnsListSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.turn.findMany({ where: scoped, orderBy, skip, take, select: turnSelect }),
      this.prisma.turn.count({ where: scoped }),
    ]);
    reply.header('Content-Range', contentRange('turns', skip, rows.length, total));
    return rows.map(toTurnDto);
  }

  @Get(':id')
  @Roles(...ALL_ROLES)
  @ApiOperation({ summary: 'One turn with its trace (model and tool calls: arguments, results, ms) and step outcomes (404 for an id of another tenant)' })
  @Answers({ status: 200, description: 'The turn with its trace and outcomes.', schema: turnDetail })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<TurnDetailDto> {
    const row = isUuid(id) ? await this.prisma.turn.findFirst({ where: { id, ...tenantScope(user) }, select: turnDetailSelect }) : null;
    if (!row) throw new ResourceNotFoundError('turn', id);
    return toTurnDetail(row);
  }
}

import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { ALL_ROLES, Roles } from '../auth/roles.decorator';
import { OPERATORS } from '../common/ops-roles';
import { isUuid } from '../list-query/filters';
import { contentRange, parseListQuery } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { HandBackSession } from './hand-back.usecase';
import { lastTurnFailures } from './last-turn-failure';
import { sessionListItem, sessionRecord, sessionSelect, type SessionDto, type SessionListItemDto } from './session.dto';
import { sessionsListSpec } from './sessions.list-spec';
import { Answers } from '../../docs/answer.decorator';
import { z } from 'zod';

@ApiTags('console admin')
@Controller('v1/admin/sessions')
@UseGuards(AdminAuthGuard)
export class SessionsController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly handBackSession: HandBackSession,
  ) {}

  @Get()
  @Roles(...ALL_ROLES)
  @ApiOperation({ summary: 'Sessions, react-admin simple-REST: ?sort=["createdAt","DESC"]&range=[0,24]&filter={"status":"active"}; total in Content-Range; lastTurnFailure when the newest turn failed or was deferred' })
  @Answers({ status: 200, description: 'One page of sessions; the total is in Content-Range.', schema: z.array(sessionListItem) })
  async list(
    @CurrentUser() user: AdminUser,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionListItemDto[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, sessionsListSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.session.findMany({ where: scoped, orderBy, skip, take, select: sessionSelect }),
      this.prisma.session.count({ where: scoped }),
    ]);
    reply.header('Content-Range', contentRange('sessions', skip, rows.length, total));
    const failures = await lastTurnFailures(this.prisma, rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, lastTurnFailure: failures.get(r.id) ?? null }));
  }

  @Get(':id')
  @Roles(...ALL_ROLES)
  @ApiOperation({ summary: 'One session (404 for an id of another tenant)' })
  @Answers({ status: 200, description: 'The session.', schema: sessionRecord })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<SessionDto> {
    const row = isUuid(id)
      ? await this.prisma.session.findFirst({ where: { id, ...tenantScope(user) }, select: sessionSelect })
      : null;
    if (!row) throw new ResourceNotFoundError('session', id);
    return row;
  }

  @Post(':id/hand-back')
  @ApiResponse({ status: 409, description: '`session-not-handed-off`: the bot already answers this session.' })
  @HttpCode(200)
  @Roles(...OPERATORS)
  @ApiOperation({ summary: 'Give a handed-off session back to the bot; it answers from the next message (409 session-not-handed-off otherwise)' })
  @Answers({ status: 200, description: 'The session, back with its agent.', schema: sessionRecord })
  handBack(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<SessionDto> {
    return this.handBackSession.execute(user, id);
  }
}

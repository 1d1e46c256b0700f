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
import { z } from 'zod';
import { Answers } from '../../docs/answer.decorator';
import { messageRecord, toMessageDto, type MessageDto } from './message.dto';
import { messagesListSpec } from './messages.list-spec';

@ApiTags('console admin')
@Controller('v1/admin/messages')
@UseGuards(AdminAuthGuard)
export class MessagesController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles(...ALL_ROLES)
  @ApiOperation({ summary: 'Messages, simple-REST; filter={"sessionId":"..."} gives a transcript in arrival order (seq)' })
  @Answers({ status: 200, description: 'One page of messages; the total is in Content-Range.', schema: z.array(messageRecord) })
  async list(
    @CurrentUser() user: AdminUser,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageDto[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, messagesListSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.message.findMany({ where: scoped, orderBy, skip, take }),
      this.prisma.message.count({ where: scoped }),
    ]);
    reply.header('Content-Range', contentRange('messages', skip, rows.length, total));
    return rows.map(toMessageDto);
  }

  @Get(':id')
  @Roles(...ALL_ROLES)
  @ApiOperation({ summary: 'One message (404 for an id of another tenant)' })
  @Answers({ status: 200, description: 'The message.', schema: messageRecord })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<MessageDto> {
    const row = isUuid(id) ? await this.prisma.message.findFirst({ where: { id, ...tenantScope(user) } }) : null;
    if (!row) throw new ResourceNotFoundError('message', id);
    return toMessageDto(row);
  }
}

import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { listReply } from '../common/list-reply';
import { OPERATORS } from '../common/ops-roles';
import { parseListQuery } from '../list-query/list-query';
import { deadLettersListSpec, type DeadLetterDto } from './dead-letter.dto';
import { TurnDeadLetters } from './turn-dead-letters';
import { Answers } from '../../docs/answer.decorator';
import { deadLetterRecord } from './dead-letter.dto';
import { z } from 'zod';

/** Turn jobs that failed every attempt, per tenant; redrive retries one. */
@ApiTags('console admin')
@Controller('v1/admin/dead-letters')
@UseGuards(AdminAuthGuard)
export class DeadLettersController {
  constructor(private readonly deadLetters: TurnDeadLetters) {}

  @Get()
  @Roles(...OPERATORS)
  @ApiOperation({ summary: 'Failed turn jobs of your tenant, newest first (filter {sessionId, messageId, id}); total in Content-Range' })
  @Answers({ status: 200, description: 'One page of dead turn jobs; the total is in Content-Range.', schema: z.array(deadLetterRecord) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<DeadLetterDto[]> {
    const parsed = parseListQuery(query, deadLettersListSpec);
    const { rows, total, truncated } = await this.deadLetters.list(user, parsed);
    // The scan reads the newest failed jobs only; say so rather than show a silently short total.
    if (truncated) reply.header('X-Dead-Letters-Truncated', 'true');
    return listReply(reply, 'dead-letters', parsed.skip, rows, total);
  }

  @Post(':id/redrive')
  @ApiResponse({ status: 409, description: '`dead-letter-not-failed`: the job is not failed (any more).' })
  @HttpCode(200)
  @Roles(...OPERATORS)
  @ApiOperation({ summary: 'Retry a failed turn job with fresh attempts; 409 dead-letter-not-failed if it is not failed (any more)' })
  @Answers({ status: 200, description: 'The job, queued again.', schema: deadLetterRecord })
  redrive(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<DeadLetterDto> {
    return this.deadLetters.redrive(user, id);
  }
}

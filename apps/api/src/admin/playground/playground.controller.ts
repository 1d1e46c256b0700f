import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { CONFIG_WRITERS, READERS } from '../common/admin-roles';
import { PlaygroundTurns, playgroundTurnBody, type PlaygroundTurnBody } from './playground.usecase';
import { Answers } from '../../docs/answer.decorator';
import { playgroundTurnAnswer, playgroundView } from './playground.answers';
import type { z } from 'zod';

/** The console playground: talk to a draft, an unsaved config or any version without publishing. */
@ApiTags('console admin')
@Controller('v1/admin/agents/:id/playground')
@UseGuards(AdminAuthGuard)
export class PlaygroundController {
  constructor(private readonly turns: PlaygroundTurns) {}

  @Post('turns')
  @ApiResponse({ status: 409, description: '`playground-too-long`: the conversation has its most turns; start a new one.' })
  @ApiResponse({ status: 422, description: '`playground-turn-failed`: the agent could not run (details.engineCode); `flow-configuration`: the version\'s flows do not load.' })
  @ApiResponse({ status: 429, description: "`quota-exceeded`: the tenant's monthly quota is used up." })
  @ApiResponse({ status: 502, description: '`agent-run-failed`: the worker could not run the turn.' })
  @ApiResponse({ status: 504, description: '`agent-run-timeout`: no worker answered in time.' })
  @HttpCode(200)
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({
    summary:
      'One playground turn: { message, target: "draft" | "unsaved" | <version>, config? (unsaved), playgroundId? } → the replies and the turn trace. No channel, key, session or usage row is created.',
  })
  @Answers({ status: 200, description: 'The replies and what ran (trace, usage, outcomes).', schema: playgroundTurnAnswer })
  send(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(playgroundTurnBody)) body: PlaygroundTurnBody): Promise<z.infer<typeof playgroundTurnAnswer>> {
    return this.turns.send(user, id, body);
  }

  @Get(':playgroundId')
  @Roles(...READERS)
  @ApiOperation({ summary: 'A playground conversation with every turn (replies, trace, usage, outcomes)' })
  @Answers({ status: 200, description: 'The conversation with every turn.', schema: playgroundView })
  get(@CurrentUser() user: AdminUser, @Param('id') id: string, @Param('playgroundId') playgroundId: string): Promise<z.infer<typeof playgroundView>> {
    return this.turns.get(user, id, playgroundId);
  }
}

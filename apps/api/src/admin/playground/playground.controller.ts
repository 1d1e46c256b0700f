import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { CONFIG_WRITERS, READERS } from '../common/admin-roles';
import { PlaygroundTurns, playgroundTurnBody, type PlaygroundTurnBody } from './playground.usecase';

/** The console playground: talk to a draft, an unsaved config or any version without publishing. */
@ApiTags('console admin')
@Controller('v1/admin/agents/:id/playground')
@UseGuards(AdminAuthGuard)
export class PlaygroundController {
  constructor(private readonly turns: PlaygroundTurns) {}

  @Post('turns')
  @HttpCode(200)
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({
    summary:
      'One playground turn: { message, target: "draft" | "unsaved" | <version>, config? (unsaved), playgroundId? } → the replies and the turn trace. No channel, key, session or usage row is created.',
  })
  send(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(playgroundTurnBody)) body: PlaygroundTurnBody) {
    return this.turns.send(user, id, body);
  }

  @Get(':playgroundId')
  @Roles(...READERS)
  @ApiOperation({ summary: 'A playground conversation with every turn (replies, trace, usage, outcomes)' })
  get(@CurrentUser() user: AdminUser, @Param('id') id: string, @Param('playgroundId') playgroundId: string) {
    return this.turns.get(user, id, playgroundId);
  }
}

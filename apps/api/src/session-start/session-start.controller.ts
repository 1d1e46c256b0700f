import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags, type ApiBodyOptions } from '@nestjs/swagger';
import { z } from 'zod';
import { ApiKeyGuard } from '../channel-auth/api-key.guard';
import { ChannelAuth, type ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import { IngestRateLimitGuard } from '../limits/ingest-rate-limit.guard';
import { Answers } from '../docs/answer.decorator';
import { sessionStartAnswer, sessionStartBody, sessionStartParams, type SessionStartBody } from './session-start.schemas';
import { StartFlow } from './start-flow.usecase';

@ApiTags('channel')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1')
export class SessionStartController {
  constructor(private readonly startFlow: StartFlow) {}

  @Post('sessions/:sessionId/start')
  @ApiResponse({ status: 409, description: '`idempotency-key-reused`: this key was used for a different flow start.' })
  @ApiResponse({ status: 422, description: "`unknown-flow` (the agent's flows are listed), `agent-unavailable`: nothing stored." })
  @UseGuards(IngestRateLimitGuard)
  @HttpCode(202)
  @ApiOperation({ summary: "Start one of the agent's flows in a session (idempotent by key)" })
  @ApiBody({ examples: { survey: { summary: 'Start the satisfaction survey', value: { flow: 'csat-survey', key: 'order-1042-csat' } } } } as ApiBodyOptions)
  @Answers({ status: 202, description: 'The flow start was accepted (`duplicate`: this key started it before).', schema: sessionStartAnswer })
  start(
    @ChannelAuth() auth: ChannelAuthContext,
    @Param(new ZodValidationPipe(sessionStartParams, 'params')) params: z.infer<typeof sessionStartParams>,
    @Body(new ZodValidationPipe(sessionStartBody, 'body')) body: SessionStartBody,
  ): Promise<z.infer<typeof sessionStartAnswer>> {
    return this.startFlow.execute(auth, params.sessionId, body);
  }
}

import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags, type ApiBodyOptions } from '@nestjs/swagger';
import { z } from 'zod';
import { ApiKeyGuard } from '../channel-auth/api-key.guard';
import { ChannelAuth, type ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import { IngestRateLimitGuard } from '../limits/ingest-rate-limit.guard';
import { sessionStartBody, sessionStartParams, type SessionStartBody } from './session-start.schemas';
import { StartFlow, type StartFlowResult } from './start-flow.usecase';

@ApiTags('channel')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1')
export class SessionStartController {
  constructor(private readonly startFlow: StartFlow) {}

  @Post('sessions/:sessionId/start')
  @UseGuards(IngestRateLimitGuard)
  @HttpCode(202)
  @ApiOperation({ summary: "Start one of the agent's flows in a session (idempotent by key)" })
  @ApiBody({ schema: z.toJSONSchema(sessionStartBody) } as ApiBodyOptions)
  @ApiResponse({ status: 202, description: '{ startId, sessionId, flow, status: "queued" | "processed" | "ignored", duplicate }' })
  start(
    @ChannelAuth() auth: ChannelAuthContext,
    @Param(new ZodValidationPipe(sessionStartParams, 'params')) params: z.infer<typeof sessionStartParams>,
    @Body(new ZodValidationPipe(sessionStartBody, 'body')) body: SessionStartBody,
  ): Promise<StartFlowResult> {
    return this.startFlow.execute(auth, params.sessionId, body);
  }
}

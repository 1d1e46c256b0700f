import { Controller, Get, Headers, Param, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { ApiKeyGuard } from '../channel-auth/api-key.guard';
import { ChannelAuth, type ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import { sessionParams } from '../messages/messages.schemas';
import { OpenSessionStream } from './open-session-stream.usecase';
import { resumePoint, sendSessionEvents } from './sse-response';

export { SSE_HEARTBEAT_MS } from './sse-response';

@ApiTags('channel')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1')
export class SessionStreamController {
  constructor(private readonly openStream: OpenSessionStream) {}

  @Get('sessions/:sessionId/stream')
  @ApiOperation({ summary: "Live replies of a session (Server-Sent Events): `delta` events while a turn streams, `committed` when its messages are saved; resumes after Last-Event-ID" })
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The `id` of the last `committed` event received: the stream first sends every turn committed since, once each' })
  @ApiResponse({
    status: 200,
    description:
      'event: delta, data { turnId, delta } · event: committed, id: <cursor>, data { turnId, answered, replies: [{ id, text }], status?: "answered" | "failed" | "deferred", retryAt? } ' +
      '(`failed`: replies hold the fallback message; `deferred`: the model is down, the turn runs again at retryAt) · ' +
      'event: deferred, data { waiting: [messageId], retryAt } (the model is down before any turn could run; the agent\'s holding message, if any, comes just before as a committed event with status "deferred") · ": ping" comments every 15 s',
  })
  async stream(
    @ChannelAuth() auth: ChannelAuthContext,
    @Param(new ZodValidationPipe(sessionParams, 'params')) params: z.infer<typeof sessionParams>,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const after = resumePoint(lastEventId);
    await sendSessionEvents(reply, (onEvent) => this.openStream.execute(auth, params.sessionId, onEvent, { after }));
  }
}

import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiQuery, ApiResponse, ApiTags, type ApiBodyOptions } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ApiKeyGuard } from '../channel-auth/api-key.guard';
import { ChannelAuth, type ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import { IngestQuotaGuard } from '../limits/ingest-quota.guard';
import { IngestRateLimitGuard } from '../limits/ingest-rate-limit.guard';
import { ListSessionMessages, type SessionMessagesView } from './list-session-messages.usecase';
import {
  postMessageBody,
  postMessageQuery,
  sessionMessagesQuery,
  sessionParams,
  type PostMessageBody,
  type PostMessageQuery,
  type SessionMessagesQuery,
} from './messages.schemas';
import { PostMessage, type PostMessageResult } from './post-message.usecase';

@ApiTags('channel')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1')
export class MessagesController {
  constructor(
    private readonly postMessage: PostMessage,
    private readonly listSessionMessages: ListSessionMessages,
  ) {}

  @Post('messages')
  @UseGuards(IngestRateLimitGuard, IngestQuotaGuard)
  @HttpCode(202)
  @ApiOperation({ summary: 'Accept a customer message; optionally wait up to 30 s for the reply' })
  @ApiBody({ schema: z.toJSONSchema(postMessageBody) } as ApiBodyOptions)
  @ApiQuery({ name: 'wait', required: false, description: 'Seconds (0..30) to hold the request for the reply' })
  @ApiResponse({
    status: 202,
    description:
      'Accepted, no answer yet (no `wait`, or it ran out): `status` is `queued`. A retried message id that was settled already says how it ended (`answered`, `failed`).',
    schema: {
      type: 'object',
      required: ['messageId', 'sessionId', 'status'],
      properties: {
        messageId: { type: 'string', format: 'uuid' },
        sessionId: { type: 'string', format: 'uuid' },
        status: { type: 'string', enum: ['queued', 'answered', 'failed', 'deferred'] },
      },
    },
  })
  @ApiResponse({
    status: 200,
    description:
      'The turn ended within `wait`. `answered`: the agent\'s replies (possibly none, when the flow chose silence). ' +
      '`failed`: something failed (the provider refused, the agent could not be loaded, a run failed) and `replies` holds the agent\'s fallback message. ' +
      '`deferred`: the model is down for now; the turn runs again at `retryAt` and its answer arrives later (stream or webhook); `replies` holds the holding message when the agent has one.',
    schema: {
      type: 'object',
      required: ['messageId', 'sessionId', 'status', 'replies'],
      properties: {
        messageId: { type: 'string', format: 'uuid' },
        sessionId: { type: 'string', format: 'uuid' },
        status: { type: 'string', enum: ['answered', 'failed', 'deferred'] },
        replies: { type: 'array', items: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'string' }, text: { type: 'string' } } } },
        retryAt: { type: 'string', format: 'date-time', description: 'With `deferred`: when the turn is tried again.' },
      },
    },
  })
  async post(
    @ChannelAuth() auth: ChannelAuthContext,
    @Body(new ZodValidationPipe(postMessageBody, 'body')) body: PostMessageBody,
    @Query(new ZodValidationPipe(postMessageQuery, 'query')) query: PostMessageQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PostMessageResult['body']> {
    // Stop waiting when the client hangs up; 'close' also fires after a normal answer, harmlessly.
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    const result = await this.postMessage.execute(auth, body, query.wait ?? 0, gone.signal);
    void reply.status(result.httpStatus);
    return result.body;
  }

  @Get('sessions/:sessionId/messages')
  @ApiOperation({ summary: "A session's messages in arrival order (the key's tenant only), paged by seq" })
  @ApiQuery({ name: 'after', required: false, description: 'The `next` of the previous page' })
  @ApiQuery({ name: 'limit', required: false, description: 'Messages per page, 1..500 (default 500)' })
  list(
    @ChannelAuth() auth: ChannelAuthContext,
    @Param(new ZodValidationPipe(sessionParams, 'params')) params: z.infer<typeof sessionParams>,
    @Query(new ZodValidationPipe(sessionMessagesQuery, 'query')) query: SessionMessagesQuery,
  ): Promise<SessionMessagesView> {
    return this.listSessionMessages.execute(auth, params.sessionId, query);
  }
}

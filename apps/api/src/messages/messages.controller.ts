import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, type ApiBodyOptions, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ApiKeyGuard } from '../channel-auth/api-key.guard';
import { ChannelAuth, type ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { ServerToServer } from '../common/http/server-to-server';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import { IngestQuotaGuard } from '../limits/ingest-quota.guard';
import { IngestRateLimitGuard } from '../limits/ingest-rate-limit.guard';
import { Answers } from '../docs/answer.decorator';
import { ListSessionMessages } from './list-session-messages.usecase';
import {
  messageAcceptedAnswer,
  messageAnsweredAnswer,
  postMessageBody,
  postMessageQuery,
  sessionMessagesQuery,
  sessionMessagesAnswer,
  sessionParams,
  type MessageAnswer,
  type PostMessageBody,
  type PostMessageQuery,
  type SessionMessagesQuery,
} from './messages.schemas';
import { PostMessage } from './post-message.usecase';

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
  @ServerToServer()
  @ApiResponse({ status: 409, description: '`idempotency-key-reused`: this message `id` was used before with another session or text; nothing stored.' })
  @UseGuards(IngestRateLimitGuard, IngestQuotaGuard)
  @HttpCode(202)
  @ApiOperation({ summary: 'Accept a customer message; optionally wait up to 30 s for the reply' })
  @ApiBody({ examples: { hello: { summary: 'A customer says hello', value: { session: 'whatsapp:+5511999990000', text: 'Hi, is my order on its way?', id: 'wamid.HBgM1' } } } } as ApiBodyOptions)
  @ApiQuery({ name: 'wait', required: false, description: 'Seconds (0..30) to hold the request for the reply' })
  @Answers(
    {
      status: 202,
      description:
        'Accepted, no answer yet (no `wait`, or it ran out): `status` is `queued`. A retried message id that was settled already says how it ended (`answered`, `failed`).',
      schema: messageAcceptedAnswer,
      example: { messageId: '0b5e7c1e-3c55-4c5e-9d0c-4f7f0c7a2a11', sessionId: '7d1f3a52-61c2-4a53-9a3e-2f4b8f0d9e10', status: 'queued' },
    },
    {
      status: 200,
      description:
        'The turn ended within `wait`. `answered`: the agent\'s replies (possibly none, when the flow chose silence). ' +
        '`failed`: something failed (the provider refused, the agent could not be loaded, a run failed) and `replies` holds the agent\'s fallback message. ' +
        '`deferred`: the model is down for now; the turn runs again at `retryAt` and its answer arrives later (stream or webhook); `replies` holds the holding message when the agent has one.',
      schema: messageAnsweredAnswer,
      example: {
        messageId: '0b5e7c1e-3c55-4c5e-9d0c-4f7f0c7a2a11',
        sessionId: '7d1f3a52-61c2-4a53-9a3e-2f4b8f0d9e10',
        status: 'answered',
        replies: [{ id: 'c2a4e0f8-1d7b-4f0e-8a6c-5b9d3e2f1a00', text: 'Hi! How can I help?' }],
      },
    },
  )
  async post(
    @ChannelAuth() auth: ChannelAuthContext,
    @Body(new ZodValidationPipe(postMessageBody, 'body')) body: PostMessageBody,
    @Query(new ZodValidationPipe(postMessageQuery, 'query')) query: PostMessageQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageAnswer> {
    const wait = query.wait ?? 0;
    const result = await this.postMessage.execute(auth, body, wait, wait > 0 ? clientGone(reply) : undefined);
    void reply.status(result.httpStatus);
    return result.body;
  }

  @Get('sessions/:sessionId/messages')
  @ApiOperation({ summary: "A session's messages in arrival order (the key's tenant only), paged by seq" })
  @ApiQuery({ name: 'after', required: false, description: 'The `next` of the previous page' })
  @ApiQuery({ name: 'limit', required: false, description: 'Messages per page, 1..500 (default 500)' })
  @Answers({ status: 200, description: 'One page of the conversation.', schema: sessionMessagesAnswer })
  list(
    @ChannelAuth() auth: ChannelAuthContext,
    @Param(new ZodValidationPipe(sessionParams, 'params')) params: z.infer<typeof sessionParams>,
    @Query(new ZodValidationPipe(sessionMessagesQuery, 'query')) query: SessionMessagesQuery,
  ): Promise<z.infer<typeof sessionMessagesAnswer>> {
    return this.listSessionMessages.execute(auth, params.sessionId, query);
  }
}

/**
 * Aborts when the client hangs up before its answer, so a waiting request stops waiting. Only
 * for requests that wait: 'close' fires after every answer too, and an abort builds a
 * DOMException (1% of the API's CPU at ingest when every request made one).
 */
function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}

import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import { sessionMessagesQuery, type SessionMessagesQuery } from '../messages/messages.schemas';
import { SessionNotFoundError } from '../messages/messages.errors';
import { OpenSessionStream } from '../streams/open-session-stream.usecase';
import { resumePoint, sendSessionEvents } from '../streams/sse-response';
import { IdentifyVisitor } from './identify-visitor.usecase';
import { ListVisitorMessages } from './list-visitor-messages.usecase';
import { PostVisitorMessage } from './post-visitor-message.usecase';
import { Answers } from '../docs/answer.decorator';
import { StartVisitorSession } from './start-visitor-session.usecase';
import { findVisitorSession } from './visitor-session';
import { Visitor, VisitorGuard, type VisitorContext } from './visitor.guard';
import { PrismaService } from '@switchboard/db';
import {
  identifyAnswer,
  identifyBody,
  startVisitorSessionBody,
  visitorHistoryAnswer,
  visitorMessageAnswer,
  visitorMessageBody,
  visitorSessionAnswer,
  widgetParams,
  type IdentifyBody,
  type StartVisitorSessionBody,
  type VisitorMessageBody,
} from './widget.schemas';

type WidgetParams = z.infer<typeof widgetParams>;

/**
 * The web widget's API (docs/widget.md): a visitor token for a page on an allowed origin, then
 * the visitor's own conversation — history, messages, identify, live replies — and nothing else.
 */
@ApiTags('widget')
@Controller('v1/widget/:publicId')
export class WidgetController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly startSession: StartVisitorSession,
    private readonly listMessages: ListVisitorMessages,
    private readonly postMessage: PostVisitorMessage,
    private readonly identifyVisitor: IdentifyVisitor,
    private readonly openStream: OpenSessionStream,
  ) {}

  @Post('sessions')
  @HttpCode(200)
  @ApiOperation({ summary: 'A visitor token for a page on one of the channel’s allowed origins; send an earlier token to continue its conversation' })
  @Answers({ status: 200, description: 'A visitor token and how the widget looks.', schema: visitorSessionAnswer })
  @ApiResponse({ status: 403, description: '`origin-not-allowed`, or `tenant-suspended` (nothing issued)' })
  start(
    @Param(new ZodValidationPipe(widgetParams, 'params')) params: WidgetParams,
    @Body(new ZodValidationPipe(startVisitorSessionBody)) body: StartVisitorSessionBody,
    @Headers('origin') origin: string | undefined,
    @Req() req: FastifyRequest,
  ): Promise<z.infer<typeof visitorSessionAnswer>> {
    return this.startSession.execute(params.publicId, origin, req.ip, body);
  }

  @Get('messages')
  @UseGuards(VisitorGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The visitor’s conversation in arrival order, paged by seq (as GET /v1/sessions/:id/messages)' })
  @Answers({ status: 200, description: 'One page of the visitor’s conversation (`session` null before the first message).', schema: visitorHistoryAnswer })
  history(
    @Visitor() visitor: VisitorContext,
    @Param(new ZodValidationPipe(widgetParams, 'params')) _params: WidgetParams,
    @Query(new ZodValidationPipe(sessionMessagesQuery, 'query')) query: SessionMessagesQuery,
  ): Promise<z.infer<typeof visitorHistoryAnswer>> {
    return this.listMessages.execute(visitor, query);
  }

  @Post('messages')
  @UseGuards(VisitorGuard)
  @HttpCode(202)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'A visitor’s message, with the widget’s own id (a retried id is stored once); the reply comes on the stream' })
  @Answers({ status: 202, description: 'Stored; `queued` until its turn commits (a retried id of a settled message says how it ended).', schema: visitorMessageAnswer })
  send(
    @Visitor() visitor: VisitorContext,
    @Param(new ZodValidationPipe(widgetParams, 'params')) _params: WidgetParams,
    @Body(new ZodValidationPipe(visitorMessageBody)) body: VisitorMessageBody,
  ): Promise<z.infer<typeof visitorMessageAnswer>> {
    return this.postMessage.execute(visitor, body);
  }

  @Post('identify')
  @UseGuards(VisitorGuard)
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'What the page says about its visitor (name, email, ...): kept on the session as given by the visitor, never trusted' })
  @Answers({ status: 200, description: 'Kept on the session.', schema: identifyAnswer })
  identify(
    @Visitor() visitor: VisitorContext,
    @Param(new ZodValidationPipe(widgetParams, 'params')) _params: WidgetParams,
    @Body(new ZodValidationPipe(identifyBody)) body: IdentifyBody,
  ): Promise<z.infer<typeof identifyAnswer>> {
    return this.identifyVisitor.execute(visitor, body);
  }

  @Get('stream')
  @UseGuards(VisitorGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Live replies of the visitor’s conversation (Server-Sent Events, as GET /v1/sessions/:id/stream); resumes after Last-Event-ID' })
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The `id` of the last `committed` event received' })
  async stream(
    @Visitor() visitor: VisitorContext,
    @Param(new ZodValidationPipe(widgetParams, 'params')) _params: WidgetParams,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const after = resumePoint(lastEventId);
    const session = await findVisitorSession(this.prisma, visitor);
    if (!session) throw new SessionNotFoundError();
    const scope = { tenantId: visitor.tenantId, channelId: visitor.channelId, agentId: visitor.channel.agentId };
    await sendSessionEvents(reply, (onEvent) => this.openStream.execute(scope, session.id, onEvent, { after }));
  }
}

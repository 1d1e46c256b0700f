import { Controller, Get, Param, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { ApiKeyGuard } from '../channel-auth/api-key.guard';
import { ChannelAuth, type ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import { sessionParams } from '../messages/messages.schemas';
import { OpenSessionStream } from './open-session-stream.usecase';
import { sseComment, sseEvent } from './sse-format';

/** A comment line this often keeps idle streams open through proxies (most cut at 30-60 s). */
export const SSE_HEARTBEAT_MS = 15_000;

@ApiTags('channel')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1')
export class SessionStreamController {
  constructor(private readonly openStream: OpenSessionStream) {}

  @Get('sessions/:sessionId/stream')
  @ApiOperation({ summary: "Live replies of a session (Server-Sent Events): `delta` events while a turn streams, `committed` when its messages are saved" })
  @ApiProduces('text/event-stream')
  @ApiResponse({ status: 200, description: 'event: delta, data { turnId, delta } · event: committed, data { turnId, answered, replies: [{ id, text }] } · ": ping" comments every 15 s' })
  async stream(
    @ChannelAuth() auth: ChannelAuthContext,
    @Param(new ZodValidationPipe(sessionParams, 'params')) params: z.infer<typeof sessionParams>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const raw = reply.raw;
    // Events that arrive between the subscription and the headers are queued, not lost.
    let pending: string[] | null = [];
    const write = (chunk: string) => (pending ? pending.push(chunk) : raw.write(chunk));
    // Errors (404, 503) are thrown before anything is written, so the usual JSON error answers.
    const stream = await this.openStream.execute(auth, params.sessionId, (event) => write(sseEvent(event)));

    let heartbeat: NodeJS.Timeout | undefined;
    const end = () => {
      clearInterval(heartbeat);
      stream.close();
      stream.released.removeEventListener('abort', end);
      if (!raw.writableEnded) raw.end();
    };
    raw.once('close', end);
    stream.released.addEventListener('abort', end, { once: true });

    // From here on we own the socket: Nest/Fastify must not send a reply of their own. Headers
    // already set by hooks (request id, CORS, security) are carried over.
    reply.hijack();
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx would buffer the stream otherwise.
      'x-accel-buffering': 'no',
    });
    raw.write(sseComment('connected'));
    const queued = pending;
    pending = null;
    for (const chunk of queued) raw.write(chunk);
    heartbeat = setInterval(() => raw.write(sseComment('ping')), SSE_HEARTBEAT_MS);
    if (stream.released.aborted || raw.destroyed) end();
  }
}

import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags, type ApiBodyOptions } from '@nestjs/swagger';
import { z } from 'zod';
import { ApiKeyGuard } from '../channel-auth/api-key.guard';
import { ChannelAuth, type ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import { IngestRateLimitGuard } from '../limits/ingest-rate-limit.guard';
import { postEventBody, type PostEventBody } from './events.schemas';
import { PostEvent, type PostEventResult } from './post-event.usecase';

@ApiTags('channel')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1')
export class EventsController {
  constructor(private readonly postEvent: PostEvent) {}

  @Post('events')
  @UseGuards(IngestRateLimitGuard)
  @HttpCode(202)
  @ApiOperation({ summary: 'Report an event for a session: flows waiting on it go on, flows it triggers start' })
  @ApiBody({ schema: z.toJSONSchema(postEventBody) } as ApiBodyOptions)
  @ApiResponse({ status: 202, description: '{ eventId, sessionId, status: "queued" | "processed" | "ignored", duplicate }' })
  post(
    @ChannelAuth() auth: ChannelAuthContext,
    @Body(new ZodValidationPipe(postEventBody, 'body')) body: PostEventBody,
  ): Promise<PostEventResult> {
    return this.postEvent.execute(auth, body);
  }
}

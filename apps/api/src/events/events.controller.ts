import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags, type ApiBodyOptions } from '@nestjs/swagger';
import { z } from 'zod';
import { ApiKeyGuard } from '../channel-auth/api-key.guard';
import { ChannelAuth, type ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import { IngestRateLimitGuard } from '../limits/ingest-rate-limit.guard';
import { postEventBody, type PostEventBody } from './events.schemas';
import { PostEvent, type PostEventResult } from './post-event.usecase';

/**
 * zod never copies a `__proto__` key into its output (assigning it would replace the object's
 * prototype), so `data: { "__proto__": 1 }` would vanish silently while `constructor` is refused
 * as an unknown field. The raw body still has it as an own key: hand such keys on, to be refused
 * like any other field the agent lacks.
 */
function keysTheSchemaDropped(rawData: unknown, parsed: PostEventBody['data']): string[] {
  if (typeof rawData !== 'object' || rawData === null || Array.isArray(rawData) || parsed === undefined) return [];
  return Object.keys(rawData).filter((key) => !Object.hasOwn(parsed, key));
}

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
    @Body('data') rawData: unknown,
  ): Promise<PostEventResult> {
    return this.postEvent.execute(auth, body, keysTheSchemaDropped(rawData, body.data));
  }
}

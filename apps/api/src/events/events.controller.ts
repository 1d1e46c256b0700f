import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags, type ApiBodyOptions } from '@nestjs/swagger';
import { z } from 'zod';
import { ApiKeyGuard } from '../channel-auth/api-key.guard';
import { ChannelAuth, type ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import { IngestRateLimitGuard } from '../limits/ingest-rate-limit.guard';
import { Answers } from '../docs/answer.decorator';
import { postEventAnswer, postEventBody, type PostEventBody } from './events.schemas';
import { PostEvent } from './post-event.usecase';

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
  @ApiResponse({ status: 409, description: '`idempotency-key-reused`: this key was used for a different event or session.' })
  @ApiResponse({ status: 422, description: '`invalid-event-data` (details per field), `agent-unavailable`: nothing stored.' })
  @UseGuards(IngestRateLimitGuard)
  @HttpCode(202)
  @ApiOperation({ summary: 'Report an event for a session: flows waiting on it go on, flows it triggers start' })
  @ApiBody({ examples: { shipped: { summary: 'An order shipped', value: { session: 'whatsapp:+5511999990000', event: 'order.shipped', key: 'order-1042-shipped', data: { trackingCode: 'BR123456789' } } } } } as ApiBodyOptions)
  @Answers({
    status: 202,
    description: '`queued`: flows will run; `processed`: it ran at once; `ignored`: nothing waits on or starts from it. `duplicate`: the key was reported before.',
    schema: postEventAnswer,
    example: { eventId: '3f0c2b9e-8a41-4d2e-b6f5-1c7d9e0a4b22', sessionId: '7d1f3a52-61c2-4a53-9a3e-2f4b8f0d9e10', status: 'queued', duplicate: false },
  })
  post(
    @ChannelAuth() auth: ChannelAuthContext,
    @Body(new ZodValidationPipe(postEventBody, 'body')) body: PostEventBody,
    @Body('data') rawData: unknown,
  ): Promise<z.infer<typeof postEventAnswer>> {
    return this.postEvent.execute(auth, body, keysTheSchemaDropped(rawData, body.data));
  }
}

import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { isAdapterKind, type AdapterKind } from '@switchboard/webhooks';
import type { InboundHandler } from './inbound-handler';
import type { FastifyReply } from 'fastify';
import type { RawBodyRequest } from '../common/http/json-body-parser';
import { whatsAppChallenge } from './whatsapp/whatsapp-inbound';
import { HandBackFromPlatform } from './hand-back-from-platform';
import { InvalidPlatformSignatureError, PlatformChannelNotFoundError } from './channel-adapter.errors';
import { IngestPlatformMessage } from './ingest-platform-message.usecase';
import { PlatformChannels } from './platform-channels';
import { inboundHandlers } from './inbound-handlers';
import { PinoLogger } from 'nestjs-pino';
import { Answers } from '../docs/answer.decorator';
import { z } from 'zod';
import { TenantStatuses } from '../tenant-status/tenant-statuses';

/**
 * Where platforms call (docs/channels.md): `POST /v1/channels/<kind>/<channel id>`. Each call
 * is verified with the platform's own scheme (a bad one is 401 and stores nothing), mapped to
 * the ingest every channel shares, and answered 200 at once — the reply goes later, through the
 * delivery system. What the bot does not answer (edits, receipts, its own messages, shapes it
 * does not know) is logged and acknowledged, so the platform does not retry it.
 */
/** What a platform's webhook gets back: how many messages were stored, or the handshake it asked for. */
const inboundAnswer = z.union([
  z.object({
    ok: z.literal(true),
    /** Customer messages stored (0 for an event that is not one). */
    stored: z.number().int().nonnegative(),
    /** Why the event was acknowledged and not stored (an edit, a bot's own message, …). */
    ignored: z.string().optional(),
  }),
  z.object({ challenge: z.string() }).describe("Slack's url_verification handshake: its challenge echoed."),
]);

@ApiTags('channel adapters')
@Controller('v1/channels')
export class ChannelInboundController {
  constructor(
    private readonly channels: PlatformChannels,
    private readonly ingest: IngestPlatformMessage,
    private readonly handBack: HandBackFromPlatform,
    private readonly logger: PinoLogger,
    private readonly statuses: TenantStatuses,
  ) {}

  @Get('whatsapp/:channelId')
  @ApiOperation({ summary: "WhatsApp's subscription handshake: echoes hub.challenge when hub.verify_token is the channel's" })
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'the hub.challenge, as text/plain' })
  @ApiResponse({ status: 401, description: 'invalid-signature: wrong or missing verify token' })
  async whatsAppHandshake(@Param('channelId') channelId: string, @Query() query: Record<string, unknown>, @Res() reply: FastifyReply): Promise<void> {
    const channel = await this.channels.find('whatsapp', channelId);
    if (!channel) throw new PlatformChannelNotFoundError('whatsapp', channelId);
    const challenge = whatsAppChallenge(query, channel.secrets.verifyToken);
    if (challenge === null) throw new InvalidPlatformSignatureError('hub.mode must be "subscribe" and hub.verify_token the token shown when the channel was created.');
    await reply.status(200).type('text/plain').send(challenge);
  }

  @Post(':kind/:channelId')
  @HttpCode(200)
  @ApiOperation({ summary: "A platform's webhook (Telegram update, WhatsApp notification, Chatwoot agent-bot event), verified with the platform's signature or secret" })
  @ApiResponse({ status: 401, description: 'invalid-signature: nothing stored' })
  @ApiResponse({ status: 403, description: 'tenant-suspended: the channel\'s tenant is suspended; nothing stored' })
  @ApiResponse({ status: 404, description: 'channel-not-found' })
  @Answers({ status: 200, description: '{ ok: true, stored: <messages stored>, ignored?: <why> }, or the handshake the platform asked for.', schema: inboundAnswer })
  async inbound(
    @Param('kind') kind: string,
    @Param('channelId') channelId: string,
    @Query() query: Record<string, unknown>,
    @Req() req: RawBodyRequest,
  ): Promise<z.infer<typeof inboundAnswer>> {
    // The handler of `kind` gets the channel of `kind` (found by both): TypeScript cannot correlate the two unions.
    const handler = isAdapterKind(kind) ? (inboundHandlers[kind] as unknown as InboundHandler<AdapterKind>) : undefined;
    const channel = handler ? await this.channels.find(handler.kind, channelId) : null;
    if (!handler || !channel) throw new PlatformChannelNotFoundError(kind, channelId);
    const verification = handler.verify({ headers: req.headers, query, rawBody: req.rawBody ?? '', now: new Date() }, channel);
    if (verification !== true) throw new InvalidPlatformSignatureError(verification);
    // Checked after the signature, so only the platform learns the tenant is suspended.
    await this.statuses.assertActive(channel.tenantId);

    const verdict = handler.map(req.body, channel);
    const scope = { tenantId: channel.tenantId, channelId: channel.channelId, agentId: channel.agentId };
    switch (verdict.kind) {
      case 'answer':
        return verdict.body;
      case 'ignored':
        this.logger.info({ msg: 'platform event acknowledged, not answered', kind, channelId, reason: verdict.reason });
        return { ok: true, stored: 0, ignored: verdict.reason };
      case 'hand-back':
        await this.handBack.execute(scope, verdict.session);
        return { ok: true, stored: 0 };
      case 'messages':
        for (const m of verdict.messages) await this.ingest.execute(scope, m);
        return { ok: true, stored: verdict.messages.length };
    }
  }
}

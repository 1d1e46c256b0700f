import { Injectable } from '@nestjs/common';
import { PrismaService, TenantQuotas, withTenant } from '@switchboard/db';
import { PinoLogger } from 'nestjs-pino';
import type { ChannelScope } from '../channel-auth/channel-auth.context';
import { agentFallbackMessage, replyWithFallback } from '../limits/refused-fallback';
import { storeRefusedMessage } from '../limits/store-refused-message';
import { MAX_KEY_CHARS, MAX_TEXT_CHARS } from '../messages/messages.schemas';
import { PostMessage } from '../messages/post-message.usecase';
import type { PlatformMessage } from './platform-message';

/**
 * A platform's message through the ingest every channel shares (PostMessage: sb_accept_inbound,
 * then the turn job), answered at once (no waiting for the reply: platforms retry a slow
 * webhook). The platform's id is the message id, so its retries store one message and get one
 * reply. The media reference is kept on the message the first time it is stored. Over quota
 * (calls, tokens or the money budget), the message is stored refused, the customer gets the
 * agent's fallback message rather than silence, and the platform still gets its 200 (a retry
 * would not help).
 */
@Injectable()
export class IngestPlatformMessage {
  constructor(
    private readonly prisma: PrismaService,
    private readonly post: PostMessage,
    private readonly quotas: TenantQuotas,
    private readonly logger: PinoLogger,
  ) {}

  async execute(scope: ChannelScope, m: PlatformMessage): Promise<{ messageId: string }> {
    const body = { session: m.session.slice(0, MAX_KEY_CHARS), text: m.text.slice(0, MAX_TEXT_CHARS), id: m.id.slice(0, MAX_KEY_CHARS) };
    const quota = await this.quotas.verdict(scope.tenantId, scope.agentId);
    if (quota.exceeded) {
      const stored = await storeRefusedMessage(this.prisma, scope, body);
      await replyWithFallback(this.prisma, scope, stored, await agentFallbackMessage(this.prisma, scope.tenantId, scope.agentId));
      this.logger.warn({ msg: 'platform message over quota: stored, answered with the fallback message', messageId: stored.messageId, quota: quota.exceeded });
      return { messageId: stored.messageId };
    }
    const result = await this.post.execute(scope, body, 0);
    const messageId = result.body.messageId;
    if (m.media) {
      const media = JSON.stringify(m.media);
      await withTenant(this.prisma, scope.tenantId, (tx) => tx.$executeRaw`UPDATE "Message" SET "media" = ${media}::jsonb WHERE "id" = ${messageId}::uuid AND "media" IS NULL`);
    }
    return { messageId };
  }
}

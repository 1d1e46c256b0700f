import { Injectable } from '@nestjs/common';
import { PrismaService, TenantQuotas } from '@switchboard/db';
import { QuotaExceededError } from '../limits/quota-exceeded.error';
import { agentFallbackMessage } from '../limits/refused-fallback';
import { storeRefusedMessage } from '../limits/store-refused-message';
import { PostMessage } from '../messages/post-message.usecase';
import { visitorMessageExternalId } from './visitor-session';
import type { VisitorContext } from './visitor.guard';
import { WidgetRateLimits } from './widget-rate-limits';
import type { VisitorMessageBody } from './widget.schemas';

export interface AcceptedVisitorMessage {
  messageId: string;
  /** The widget's id, echoed. */
  id: string;
  /** `queued` until its turn commits; a retried send of an answered message says so at once. */
  status: 'queued' | 'answered' | 'failed' | 'deferred';
}

/**
 * A visitor's message, through the same ingest as every channel (PostMessage: sb_accept_inbound,
 * then the turn job), in the visitor's own session. The widget's id becomes the channel message
 * id (under the visitor, so one visitor cannot collide with another's ids): a send retried after
 * a network drop is stored once and answered once. Limits: per visitor, the tenant's ingest
 * limit, the tenant's monthly quota.
 */
@Injectable()
export class PostVisitorMessage {
  constructor(
    private readonly prisma: PrismaService,
    private readonly post: PostMessage,
    private readonly limits: WidgetRateLimits,
    private readonly quotas: TenantQuotas,
  ) {}

  async execute(v: VisitorContext, body: VisitorMessageBody): Promise<AcceptedVisitorMessage> {
    await this.limits.message(v.tenantId, v.visitor);
    const scope = { tenantId: v.tenantId, channelId: v.channelId, agentId: v.channel.agentId };
    const message = { session: v.sessionKey, text: body.text, id: visitorMessageExternalId(v.visitor, body.id) };
    const quota = await this.quotas.verdict(v.tenantId, v.channel.agentId);
    if (quota.exceeded) {
      const stored = await storeRefusedMessage(this.prisma, scope, message);
      // The visitor sees the agent's fallback message rather than a message that never gets an answer.
      const fallbackMessage = await agentFallbackMessage(this.prisma, v.tenantId, v.channel.agentId);
      throw new QuotaExceededError({ ...quota, exceeded: quota.exceeded }, { messageId: stored.messageId, sessionId: stored.sessionId, fallbackMessage });
    }
    const result = await this.post.execute(scope, message, 0);
    return { messageId: result.body.messageId, id: body.id, status: result.body.status };
  }
}

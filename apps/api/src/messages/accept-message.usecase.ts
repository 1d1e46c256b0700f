import { Injectable } from '@nestjs/common';
import { PrismaService, type MessageStatus } from '@switchboard/db';
import type { ChannelScope } from '../channel-auth/channel-auth.context';
import { insertInboundMessage } from './insert-inbound-message';
import type { PostMessageBody } from './messages.schemas';

export interface AcceptedMessage {
  messageId: string;
  sessionId: string;
  status: MessageStatus;
  /** True when `id` matched a message stored earlier: nothing was written this time. */
  duplicate: boolean;
  acceptedAt: Date;
}

/**
 * Stores an inbound message as `queued`, creating the session on first use, in one round trip
 * (insertInboundMessage). A channel message id seen before returns the first message (also when
 * two copies race: the loser waits for the winner's row and returns it).
 */
@Injectable()
export class AcceptMessage {
  constructor(private readonly prisma: PrismaService) {}

  async execute(auth: ChannelScope, body: PostMessageBody): Promise<AcceptedMessage> {
    const m = await insertInboundMessage(this.prisma, auth, body, { status: 'queued' });
    return { messageId: m.messageId, sessionId: m.sessionId, status: m.status, duplicate: m.duplicate, acceptedAt: m.createdAt };
  }
}

import { Injectable } from '@nestjs/common';
import { PrismaService, type MessageStatus } from '@switchboard/db';
import type { ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { insertInboundMessage, isUniqueViolation } from './insert-inbound-message';
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
 * Stores an inbound message as `queued`, creating the session on first use (insertInboundMessage:
 * one statement). A channel message id seen before returns the first message (also when two
 * copies race: the loser hits the unique index and reads the winner's row).
 */
@Injectable()
export class AcceptMessage {
  constructor(private readonly prisma: PrismaService) {}

  async execute(auth: ChannelAuthContext, body: PostMessageBody): Promise<AcceptedMessage> {
    if (body.id !== undefined) {
      const earlier = await this.findByExternalId(auth.channelId, body.id);
      if (earlier) return earlier;
    }
    try {
      return await this.insert(auth, body);
    } catch (err) {
      if (body.id !== undefined && isUniqueViolation(err)) {
        const winner = await this.findByExternalId(auth.channelId, body.id);
        if (winner) return winner;
      }
      throw err;
    }
  }

  private async insert(auth: ChannelAuthContext, body: PostMessageBody): Promise<AcceptedMessage> {
    const m = await insertInboundMessage(this.prisma, auth, body, { status: 'queued' });
    return { messageId: m.messageId, sessionId: m.sessionId, status: m.status, duplicate: false, acceptedAt: m.createdAt };
  }

  private async findByExternalId(channelId: string, externalId: string): Promise<AcceptedMessage | null> {
    const m = await this.prisma.message.findUnique({
      where: { channelId_externalId: { channelId, externalId } },
      select: { id: true, sessionId: true, status: true, createdAt: true },
    });
    return m && { messageId: m.id, sessionId: m.sessionId, status: m.status, duplicate: true, acceptedAt: m.createdAt };
  }
}

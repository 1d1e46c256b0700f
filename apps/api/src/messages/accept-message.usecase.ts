import { Injectable } from '@nestjs/common';
import { PrismaService, type MessageStatus } from '@switchboard/db';
import type { ChannelScope } from '../channel-auth/channel-auth.context';
import { GroupCommit } from '../common/group-commit';
import { insertQueuedMessages, type InsertedInboundMessage, type QueuedInbound } from './insert-inbound-message';
import type { PostMessageBody } from './messages.schemas';

export interface AcceptedMessage {
  messageId: string;
  sessionId: string;
  status: MessageStatus;
  /** True when `id` matched a message stored earlier: nothing was written this time. */
  duplicate: boolean;
  acceptedAt: Date;
}

/** Group commit at ingest: at most this many messages per statement (docs/ingest-path.md). */
const MAX_BATCH = 64;
/** ...and a message waits at most this long for the batch in flight before it goes out. */
const MAX_WAIT_MS = 2;

/**
 * Stores an inbound message as `queued`, creating the session on first use. Messages accepted
 * at the same time are stored together, in one round trip and one commit (GroupCommit,
 * insertQueuedMessages); each request is answered only once its message is stored. A channel
 * message id seen before returns the first message (also when two copies race: the loser waits
 * for the winner's row and returns it).
 */
@Injectable()
export class AcceptMessage {
  private readonly batches: GroupCommit<QueuedInbound, InsertedInboundMessage>;

  constructor(prisma: PrismaService) {
    this.batches = new GroupCommit((messages) => insertQueuedMessages(prisma, messages), { maxBatch: MAX_BATCH, maxWaitMs: MAX_WAIT_MS });
  }

  async execute(auth: ChannelScope, body: PostMessageBody): Promise<AcceptedMessage> {
    const m = await this.batches.submit({ auth, body, at: new Date() });
    return { messageId: m.messageId, sessionId: m.sessionId, status: m.status, duplicate: m.duplicate, acceptedAt: m.createdAt };
  }
}

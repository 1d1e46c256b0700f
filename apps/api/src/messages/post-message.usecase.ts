import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { TurnStatus } from '@switchboard/queue';
import { PinoLogger } from 'nestjs-pino';
import type { ChannelScope } from '../channel-auth/channel-auth.context';
import { MetricsService } from '../metrics/metrics.service';
import { TurnsQueue } from '../queue/turns-queue.service';
import { SessionEventsSubscriber } from '../redis/session-events.subscriber';
import { AcceptMessage, type AcceptedMessage } from './accept-message.usecase';
import { findReplies, type AnsweredMessage, type Reply } from './find-replies';
import type { PostMessageBody } from './messages.schemas';
import { ReplyWaiter } from './reply-waiter';
import { assignLogFields } from '../logging/assign-log-fields';

export type PostMessageResult =
  | { httpStatus: 202; body: { messageId: string; sessionId: string; status: 'queued' | 'answered' | 'failed' } }
  | { httpStatus: 200; body: { messageId: string; sessionId: string; status: TurnStatus; replies: Reply[]; retryAt?: string } };

/** POST /v1/messages: store, (listen,) enqueue, and optionally wait for the reply. */
@Injectable()
export class PostMessage {
  constructor(
    private readonly accept: AcceptMessage,
    private readonly turns: TurnsQueue,
    private readonly subscriber: SessionEventsSubscriber,
    private readonly prisma: PrismaService,
    private readonly metrics: MetricsService,
    private readonly logger: PinoLogger,
  ) {}

  async execute(
    auth: ChannelScope,
    body: PostMessageBody,
    waitSeconds: number,
    abort?: AbortSignal,
  ): Promise<PostMessageResult> {
    const accepted = await this.accept.execute(auth, body);
    const { messageId, sessionId } = accepted;
    assignLogFields(this.logger, { sessionId, messageId });
    this.metrics.messagesAccepted.inc({ duplicate: String(accepted.duplicate) });

    const waiter = waitSeconds > 0 && accepted.status === 'queued' ? await this.startWaiting(messageId, sessionId) : undefined;
    if (!accepted.duplicate) {
      await this.turns.enqueue({ tenantId: auth.tenantId, sessionId, messageId, acceptedAt: accepted.acceptedAt.getTime() });
    }

    const answer = await this.answerOf(accepted, waitSeconds, waiter, abort);
    if (answer) {
      return { httpStatus: 200, body: { messageId, sessionId, status: answer.status, replies: answer.replies, ...(answer.retryAt && { retryAt: answer.retryAt }) } };
    }

    const status = accepted.status === 'queued' ? 'queued' : accepted.status === 'failed' ? 'failed' : 'answered';
    return { httpStatus: 202, body: { messageId, sessionId, status } };
  }

  private async answerOf(
    accepted: AcceptedMessage,
    waitSeconds: number,
    waiter: ReplyWaiter | undefined,
    abort: AbortSignal | undefined,
  ): Promise<AnsweredMessage | null> {
    if (waiter) return waiter.result(waitSeconds * 1000, abort);
    // A retried id whose message was answered already: its replies are in Postgres.
    if (waitSeconds > 0 && accepted.status !== 'queued') return findReplies(this.prisma, accepted.messageId);
    return null;
  }

  /** Without Redis there is nothing to wait on: answer 202 at once rather than fail. */
  private async startWaiting(messageId: string, sessionId: string): Promise<ReplyWaiter | undefined> {
    try {
      return await ReplyWaiter.start(this.subscriber, this.prisma, messageId, sessionId);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'cannot wait for the reply: subscribing failed');
      return undefined;
    }
  }
}

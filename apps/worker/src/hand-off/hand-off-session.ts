import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { eventDeliveryRow, handedOffEvent } from '@switchboard/webhooks';

/** The reason is the model's or the flow's words; a webhook payload does not need a novel. */
const MAX_REASON_CHARS = 1000;

/**
 * Hands a session to a person (the `handoff_to_human` tool and action): the session becomes
 * `handed_off`, and when the channel has a webhook, a `session.handed_off` event is queued for
 * delivery in the same transaction; the console's inbox lists it (docs/inbox.md). Only the call
 * that changes the status sends the event, so a replayed turn or a second call changes nothing
 * and notifies no one twice.
 */
@Injectable()
export class HandOffSession {
  constructor(private readonly prisma: PrismaService) {}

  /** True when this call handed the session off (false: it already was). */
  async execute(tenantId: string, sessionId: string, reason: string | undefined): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      // The inbox's unread count starts after what the agent already answered: the messages of
      // this turn (still queued) are the ones a person has to read.
      const moved = await tx.$executeRaw`
        UPDATE "Session" s SET "status" = 'handed_off', "handedOffAt" = now(), "updatedAt" = now(),
               "humanReadSeq" = GREATEST(s."humanReadSeq", COALESCE((
                 SELECT max(m."seq") FROM "Message" m WHERE m."sessionId" = s."id" AND m."direction" = 'inbound' AND m."status" <> 'queued'), 0))
         WHERE s."id" = ${sessionId}::uuid AND s."tenantId" = ${tenantId}::uuid AND s."status" <> 'handed_off'`;
      if (moved === 0) return false;
      const session = await tx.session.findUniqueOrThrow({
        where: { id: sessionId },
        select: { externalKey: true, channelId: true, channel: { select: { webhookUrl: true } } },
      });
      const url = session.channel.webhookUrl;
      if (url) {
        const event = handedOffEvent(
          { deliveryId: randomUUID(), channelId: session.channelId, sessionId, session: session.externalKey, at: new Date() },
          reason?.trim() ? reason.trim().slice(0, MAX_REASON_CHARS) : null,
        );
        await tx.delivery.create({ data: eventDeliveryRow(event, tenantId, url) });
      }
      return true;
    });
  }
}

import { replyEvent, storedEvent } from '@switchboard/webhooks';

/** What a due delivery row brings to build its payload: a reply's message, or a stored event. */
export interface DeliveryFacts {
  id: string;
  channelId: string;
  messageId: string | null;
  /** The event, stored whole when it happened; null for a reply. */
  payload: unknown;
  sessionId: string | null;
  sessionKey: string | null;
  text: string | null;
  kind: string | null;
  messageCreatedAt: Date | null;
  visibleAt: Date | null;
}

/** The JSON body of a delivery, built through the event schemas of @switchboard/webhooks. */
export function webhookBody(d: DeliveryFacts): string {
  if (d.payload !== null) return JSON.stringify(storedEvent(d.payload));
  if (d.messageId === null || d.sessionId === null || d.sessionKey === null || d.text === null || d.messageCreatedAt === null) {
    throw new Error(`delivery ${d.id} has neither a stored event nor its reply`);
  }
  return JSON.stringify(
    replyEvent({
      deliveryId: d.id,
      channelId: d.channelId,
      sessionId: d.sessionId,
      session: d.sessionKey,
      messageId: d.messageId,
      text: d.text,
      kind: d.kind,
      createdAt: d.messageCreatedAt,
      visibleAt: d.visibleAt,
    }),
  );
}

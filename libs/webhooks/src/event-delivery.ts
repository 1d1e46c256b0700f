import type { StoredWebhookEvent } from './webhook-events';

/** The Delivery row of an event that is not a reply: its payload is stored whole, due now. */
export interface EventDeliveryRow {
  id: string;
  tenantId: string;
  channelId: string;
  sessionId: string;
  url: string;
  payload: StoredWebhookEvent;
  nextAttemptAt: Date;
}

/** The row to insert for `event` (its `deliveryId` is the row's id, so retries carry the same webhook-id). */
export function eventDeliveryRow(event: StoredWebhookEvent, tenantId: string, url: string): EventDeliveryRow {
  return {
    id: event.deliveryId,
    tenantId,
    channelId: event.channelId,
    sessionId: event.sessionId,
    url,
    payload: event,
    nextAttemptAt: new Date(event.timestamp),
  };
}

import { z } from 'zod';

// Every event a channel's webhook receives, as zod schemas. The worker builds each payload by
// parsing it through its schema, and the API's OpenAPI document (`webhooks`) is generated from
// the same schemas (webhook-openapi.ts), so what is sent and what is documented cannot drift.
//
// Payloads are flat (Standard Webhooks allows the data "squashed as part of the top-level
// object"): the fields a reply carried before `type` and `version` existed are still where
// receivers read them (docs/decisions.md, "Webhook payloads stay flat").

const eventFields = {
  version: z
    .literal(1)
    .describe("Version of this event type's payload. A change that could break a receiver comes as a new version; new fields may be added to a version."),
  timestamp: z.iso
    .datetime()
    .describe('When the event happened (ISO 8601, UTC). Not when this attempt was sent: that is the `webhook-timestamp` header.'),
  deliveryId: z
    .uuid()
    .describe('This delivery, the same as the `webhook-id` header and the same on every retry of it: use it to drop duplicates.'),
  channelId: z.uuid().describe('The channel whose webhook this is.'),
};

const sessionFields = {
  sessionId: z.uuid().describe("Switchboard's id of the conversation."),
  session: z.string().describe("The channel's own key of the conversation: the `session` its customer messages were posted with."),
};

const messageFields = {
  messageId: z.uuid().describe('The reply.'),
  text: z.string().describe('What to show the customer.'),
  createdAt: z.iso
    .datetime()
    .describe('When the reply was stored. A delayed reply (a `say` step with a pause) is delivered when it becomes visible, at `timestamp`.'),
};

export const messageReplyEvent = z
  .object({ type: z.literal('message.reply'), ...eventFields, ...sessionFields, ...messageFields })
  .describe('A reply of the agent to show the customer.');

export const messageFallbackEvent = z
  .object({ type: z.literal('message.fallback'), ...eventFields, ...sessionFields, ...messageFields })
  .describe(
    "The agent's fallback message: the turn failed (the model provider refused for good, the agent could not run) and the customer gets this instead of silence. Show it like a reply; the type lets you alert someone.",
  );

export const sessionHandedOffEvent = z
  .object({
    type: z.literal('session.handed_off'),
    ...eventFields,
    ...sessionFields,
    reason: z.string().nullable().describe('Why, as the agent (the `handoff_to_human` tool or action) gave it; null when it gave none.'),
  })
  .describe(
    'The agent handed the conversation to a person. Until it is handed back, customer messages are recorded and not answered by the agent: route them to a person.',
  );

export const sessionHandedBackEvent = z
  .object({ type: z.literal('session.handed_back'), ...eventFields, ...sessionFields })
  .describe('An operator handed the conversation back to the agent: it answers again from the next customer message on.');

export const webhookTestEvent = z
  .object({
    type: z.literal('webhook.test'),
    ...eventFields,
    text: z.string().describe('A fixed sentence saying this is a test.'),
  })
  .describe(
    'A test delivery sent from the console or `POST /v1/admin/channels/{id}/test-delivery`, signed like every other event. Not a conversation: answer 2xx and do nothing.',
  );

export type MessageReplyEvent = z.infer<typeof messageReplyEvent>;
export type MessageFallbackEvent = z.infer<typeof messageFallbackEvent>;
export type SessionHandedOffEvent = z.infer<typeof sessionHandedOffEvent>;
export type SessionHandedBackEvent = z.infer<typeof sessionHandedBackEvent>;
export type WebhookTestEvent = z.infer<typeof webhookTestEvent>;

/** Events stored whole in `Delivery.payload` when they happen (replies are built from their message when sent). */
export const storedWebhookEvent = z.discriminatedUnion('type', [sessionHandedOffEvent, sessionHandedBackEvent]);
export type StoredWebhookEvent = z.infer<typeof storedWebhookEvent>;

export type WebhookEvent = MessageReplyEvent | MessageFallbackEvent | SessionHandedOffEvent | SessionHandedBackEvent | WebhookTestEvent;
export type WebhookEventType = WebhookEvent['type'];

/** The outbound message kind (Message.kind) the worker writes for the agent's fallback message. */
export const FALLBACK_MESSAGE_KIND = 'fallback';

export interface ReplyFacts {
  deliveryId: string;
  channelId: string;
  sessionId: string;
  session: string;
  messageId: string;
  text: string;
  /** Message.kind: `fallback` for the agent's fallback message, the engine's kind otherwise. */
  kind: string | null;
  createdAt: Date;
  /** When a delayed reply becomes visible; null = at once. */
  visibleAt: Date | null;
}

/** The payload of a reply's delivery: `message.fallback` for the fallback message, else `message.reply`. */
export function replyEvent(r: ReplyFacts): MessageReplyEvent | MessageFallbackEvent {
  const fields = {
    version: 1,
    timestamp: (r.visibleAt ?? r.createdAt).toISOString(),
    deliveryId: r.deliveryId,
    channelId: r.channelId,
    sessionId: r.sessionId,
    session: r.session,
    messageId: r.messageId,
    text: r.text,
    createdAt: r.createdAt.toISOString(),
  } as const;
  return r.kind === FALLBACK_MESSAGE_KIND
    ? messageFallbackEvent.parse({ type: 'message.fallback', ...fields })
    : messageReplyEvent.parse({ type: 'message.reply', ...fields });
}

export interface SessionFacts {
  deliveryId: string;
  channelId: string;
  sessionId: string;
  session: string;
  at: Date;
}

export function handedOffEvent(s: SessionFacts, reason: string | null): SessionHandedOffEvent {
  return sessionHandedOffEvent.parse({ type: 'session.handed_off', ...sessionEventFields(s), reason });
}

export function handedBackEvent(s: SessionFacts): SessionHandedBackEvent {
  return sessionHandedBackEvent.parse({ type: 'session.handed_back', ...sessionEventFields(s) });
}

function sessionEventFields(s: SessionFacts) {
  return { version: 1, timestamp: s.at.toISOString(), deliveryId: s.deliveryId, channelId: s.channelId, sessionId: s.sessionId, session: s.session };
}

export const TEST_EVENT_TEXT = 'This is a test delivery from Switchboard. No customer is involved: answer 2xx and ignore it.';

export function testEvent(t: { deliveryId: string; channelId: string; at: Date }): WebhookTestEvent {
  return webhookTestEvent.parse({
    type: 'webhook.test',
    version: 1,
    timestamp: t.at.toISOString(),
    deliveryId: t.deliveryId,
    channelId: t.channelId,
    text: TEST_EVENT_TEXT,
  });
}

/** A stored event (`Delivery.payload`, JSONB: keys come back reordered) in its schema's order, checked. */
export function storedEvent(payload: unknown): StoredWebhookEvent {
  return storedWebhookEvent.parse(payload);
}

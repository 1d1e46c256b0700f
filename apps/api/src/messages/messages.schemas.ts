import { z } from 'zod';

export const MAX_TEXT_CHARS = 16_000;
export const MAX_KEY_CHARS = 200;
export const MAX_WAIT_SECONDS = 30;

/** Body of POST /v1/messages. Strict: an unknown field is a client bug worth reporting. */
export const postMessageBody = z.strictObject({
  /** The channel's own key for the conversation (phone number, chat id...). */
  session: z.string().min(1).max(MAX_KEY_CHARS),
  text: z.string().min(1).max(MAX_TEXT_CHARS),
  /** The channel's message id; a retry with the same id is answered with the first message. */
  id: z.string().min(1).max(MAX_KEY_CHARS).optional(),
});
export type PostMessageBody = z.infer<typeof postMessageBody>;

/** Query of POST /v1/messages. Only plain decimal seconds, 0..30, so typos are not silently 0. */
export const postMessageQuery = z.strictObject({
  wait: z
    .string()
    .regex(/^\d{1,2}$/, 'wait must be a whole number of seconds')
    .transform(Number)
    .pipe(z.number().int().min(0).max(MAX_WAIT_SECONDS))
    .optional(),
});
export type PostMessageQuery = z.infer<typeof postMessageQuery>;

export const sessionParams = z.strictObject({ sessionId: z.string() });

export const MAX_PAGE_SIZE = 500;

/** Query of GET /v1/sessions/:id/messages: a page of `limit` messages after the `after` seq. */
export const sessionMessagesQuery = z.strictObject({
  after: z.string().regex(/^\d{1,18}$/, 'after must be the seq of a message').optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'limit must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(MAX_PAGE_SIZE))
    .optional(),
});
export type SessionMessagesQuery = z.infer<typeof sessionMessagesQuery>;

// ---- Answers (the OpenAPI document's schemas; handlers return these types) ----

const reply = z.object({ id: z.uuid(), text: z.string() });

/** 202 of POST /v1/messages: accepted, no answer within `wait`; a retried settled id says how it ended. */
export const messageAcceptedAnswer = z.object({
  messageId: z.uuid(),
  sessionId: z.uuid(),
  status: z.enum(['queued', 'answered', 'failed']),
});

/** 200 of POST /v1/messages: the turn ended within `wait`. */
export const messageAnsweredAnswer = z.object({
  messageId: z.uuid(),
  sessionId: z.uuid(),
  status: z.enum(['answered', 'failed', 'deferred']),
  replies: z.array(reply),
  retryAt: z.iso.datetime().optional().describe('With `deferred`: when the turn is tried again.'),
});
export type MessageAnswer = z.infer<typeof messageAcceptedAnswer> | z.infer<typeof messageAnsweredAnswer>;

/** `seq`, a message's place in its session, is a decimal string everywhere (a 64-bit integer). */
export const messageSeq = z.string().regex(/^\d+$/).describe('Arrival order within the session: a 64-bit integer as a decimal string');

export const sessionMessagesAnswer = z.object({
  session: z.object({ id: z.uuid(), externalKey: z.string(), status: z.enum(['active', 'handed_off']), createdAt: z.iso.datetime() }),
  messages: z.array(
    z.object({
      id: z.uuid(),
      seq: messageSeq,
      direction: z.enum(['inbound', 'outbound']),
      status: z.enum(['queued', 'answered', 'sent', 'failed']),
      text: z.string(),
      externalId: z.string().nullable(),
      createdAt: z.iso.datetime(),
      answeredAt: z.iso.datetime().nullable(),
    }),
  ),
  next: messageSeq.nullable().describe('Pass as `after` for the next page; null on the last page'),
});

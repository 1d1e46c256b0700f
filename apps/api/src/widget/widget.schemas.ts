import { z } from 'zod';
import { MAX_TEXT_CHARS, messageSeq } from '../messages/messages.schemas';
import { widgetSettingsSchema } from './widget-settings';

/** POST /v1/widget/:publicId/sessions: a token kept from an earlier visit, to continue that conversation. */
export const startVisitorSessionBody = z
  .strictObject({ token: z.string().min(1).max(4000).optional() })
  .optional()
  .transform((b) => b ?? {});
export type StartVisitorSessionBody = z.output<typeof startVisitorSessionBody>;

export const widgetParams = z.strictObject({ publicId: z.string() });

/** POST /v1/widget/:publicId/messages. `id` is made by the widget: a retried send is stored once. */
export const visitorMessageBody = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be the widget\'s message id: 8 to 64 letters, digits, "_" or "-"'),
  text: z.string().trim().min(1).max(MAX_TEXT_CHARS),
});
export type VisitorMessageBody = z.infer<typeof visitorMessageBody>;

export const MAX_IDENTIFY_KEYS = 20;

/** POST /v1/widget/:publicId/identify: what the page says about the visitor (name, email, plan, ...). */
export const identifyBody = z
  .record(
    z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,39}$/, 'keys are 1 to 40 letters, digits, "_", "." or "-", starting with a letter'),
    z.union([z.string().max(500), z.number(), z.boolean(), z.null()]),
  )
  .refine((v) => Object.keys(v).length <= MAX_IDENTIFY_KEYS, `at most ${MAX_IDENTIFY_KEYS} keys`);
export type IdentifyBody = z.infer<typeof identifyBody>;

// ---- Answers (the OpenAPI document's schemas; handlers return these types) ----

const sessionStatus = z.enum(['active', 'handed_off']);

/** 200 of POST /v1/widget/:publicId/sessions. */
export const visitorSessionAnswer = z.object({
  token: z.string().describe('The visitor token: `Authorization: Bearer <token>` on the other widget routes'),
  expiresAt: z.iso.datetime(),
  continued: z.boolean().describe('True when the token continues the conversation of the token sent'),
  session: z.object({ status: sessionStatus }).nullable().describe('The conversation, once it has begun'),
  widget: widgetSettingsSchema.pick({ title: true, greeting: true, color: true, position: true, avatarUrl: true, language: true }),
});

/** 200 of GET /v1/widget/:publicId/messages. */
export const visitorHistoryAnswer = z.object({
  session: z.object({ status: sessionStatus }).nullable(),
  messages: z.array(
    z.object({
      id: z.uuid(),
      seq: messageSeq,
      direction: z.enum(['inbound', 'outbound']),
      status: z.enum(['queued', 'answered', 'sent', 'failed']),
      text: z.string(),
      clientId: z.string().nullable().describe("The widget's id of the visitor's own messages; null for replies"),
      createdAt: z.iso.datetime(),
    }),
  ),
  next: messageSeq.nullable(),
});

/** 202 of POST /v1/widget/:publicId/messages. */
export const visitorMessageAnswer = z.object({
  messageId: z.uuid(),
  id: z.string().describe("The widget's id, echoed"),
  status: z.enum(['queued', 'answered', 'failed', 'deferred']),
});

/** 200 of POST /v1/widget/:publicId/identify. */
export const identifyAnswer = z.object({ identified: z.literal(true) });

import { ChannelKind, SessionStatus } from '@switchboard/db';
import { z } from 'zod';
import { messageSeq } from '../../messages/messages.schemas';

// What the inbox routes answer (the OpenAPI document's schemas; the handlers are typed by them).

const channelRef = z.object({ id: z.uuid(), name: z.string(), kind: z.enum(ChannelKind) });
const agentRef = z.object({ id: z.uuid(), name: z.string() });
const direction = z.enum(['inbound', 'outbound']);

/** A conversation waiting for or held by a person. */
export const inboxItem = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  externalKey: z.string(),
  channel: channelRef,
  agent: agentRef,
  handedOffAt: z.date().nullable(),
  /** The operator holding it (name, else email); null while it waits. */
  takenOverBy: z.string().nullable(),
  takenOverByMe: z.boolean(),
  /** Customer messages after the session's read mark. */
  unread: z.number().int(),
  lastMessage: z.object({ text: z.string(), direction, at: z.date() }).nullable(),
});
export type InboxItemDto = z.infer<typeof inboxItem>;

/** The turn that answered a customer message, shown under it: which model, and whether it went wrong. */
export const inlineTurn = z.object({
  id: z.uuid(),
  provider: z.string(),
  model: z.string(),
  /** `failed` or `deferred` (a fault, not an action asking to run later) when an outcome says so; null when it went well. */
  failure: z.enum(['failed', 'deferred']).nullable(),
  outcomeCodes: z.array(z.string()),
  totalMs: z.number().int(),
});
export type InlineTurnDto = z.infer<typeof inlineTurn>;

export const noteRecord = z.object({
  id: z.uuid(),
  text: z.string(),
  /** The note's author (name, else email); null once the user is deleted. */
  author: z.string().nullable(),
  createdAt: z.date(),
});
export type NoteDto = z.infer<typeof noteRecord>;

export const conversationMessage = z.object({
  id: z.uuid(),
  seq: messageSeq,
  direction,
  status: z.string(),
  text: z.string(),
  kind: z.string().nullable(),
  turnId: z.uuid().nullable(),
  createdAt: z.date(),
  /** On a customer message: the turn that answered it. */
  turn: inlineTurn.nullable(),
});

export const conversationAnswer = z.object({
  session: z.object({
    id: z.uuid(),
    tenantId: z.uuid(),
    externalKey: z.string(),
    status: z.enum(SessionStatus),
    channel: channelRef.extend({ hasWebhook: z.boolean() }),
    agent: agentRef,
    handedOffAt: z.date().nullable(),
    takenOverBy: z.string().nullable(),
    takenOverByMe: z.boolean(),
    unread: z.number().int(),
  }),
  messages: z.array(conversationMessage),
  notes: z.array(noteRecord),
  /** True when older messages than the first shown exist. */
  truncated: z.boolean(),
});
export type ConversationDto = z.infer<typeof conversationAnswer>;

export const takeOverAnswer = z.object({
  id: z.uuid(),
  status: z.literal('handed_off'),
  takenOverBy: z.string().nullable(),
  handedOffAt: z.date().nullable(),
});
export type TakeOverResult = z.infer<typeof takeOverAnswer>;

export const humanReplyAnswer = z.object({
  id: z.uuid(),
  seq: messageSeq,
  text: z.string(),
  kind: z.string(),
  createdAt: z.date(),
  /** Whether a webhook delivery was queued (the channel has a webhook or is a platform adapter). */
  delivered: z.enum(['queued', 'stream-only']),
});
export type HumanReplyDto = z.infer<typeof humanReplyAnswer>;

export const markReadAnswer = z.object({ id: z.uuid(), unread: z.literal(0) });

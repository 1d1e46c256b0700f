import { SessionStatus } from '@switchboard/db';
import { z } from 'zod';
import { storedJson } from '../common/answer-schemas';

/** A session as the console reads it; the engine's state blob stays server-side. */
export const sessionRecord = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  channelId: z.uuid(),
  agentId: z.uuid(),
  /** The channel's id for the conversation (the `session` a channel posts). */
  externalKey: z.string(),
  status: z.enum(SessionStatus),
  /** What a widget visitor's page said about them (identify()), as given: never trusted. */
  visitorContext: storedJson,
  version: z.number().int(),
  lastMessageAt: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type SessionDto = z.infer<typeof sessionRecord>;

/** A row of the sessions list: the session and, when its newest turn failed or was deferred, why. */
export const sessionListItem = sessionRecord.extend({
  lastTurnFailure: z
    .object({ turnId: z.uuid(), status: z.enum(['failed', 'deferred']), code: z.string().nullable(), message: z.string().nullable(), at: z.date() })
    .nullable(),
});
export type SessionListItemDto = z.infer<typeof sessionListItem>;

export const sessionSelect = {
  id: true,
  tenantId: true,
  channelId: true,
  agentId: true,
  externalKey: true,
  status: true,
  visitorContext: true,
  version: true,
  lastMessageAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

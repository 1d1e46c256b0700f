import { ChannelKind, type Prisma } from '@switchboard/db';
import { maskUrlCredentials } from '@switchboard/outbound';
import { ADAPTER_KINDS, adapterKindOfUrl, DEFAULT_SECRET_GRACE_SECONDS, MAX_SECRET_GRACE_SECONDS } from '@switchboard/webhooks';
import { z } from 'zod';
import { storedJson } from '../common/answer-schemas';
import { textContainsFilter, uuidFilter } from '../list-query/filters';
import type { ListSpec } from '../list-query/list-query';

/** The columns the API shows; the encrypted signing secret never leaves the database layer. */
export const channelColumns = {
  id: true,
  tenantId: true,
  agentId: true,
  name: true,
  kind: true,
  settings: true,
  publicId: true,
  webhookUrl: true,
  webhookSecretEncrypted: true,
  webhookSecretPreviousExpiresAt: true,
  secretsEncrypted: true,
  createdAt: true,
  updatedAt: true,
} as const;

type ChannelRow = Prisma.ChannelGetPayload<{ select: typeof channelColumns }>;

/** A channel as answers show it: never its secrets, only whether they are set. */
export const channelRecord = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  agentId: z.uuid(),
  name: z.string(),
  kind: z.enum(ChannelKind),
  settings: storedJson.describe("The kind's settings (a widget's looks and origins, a platform's non-secret options)."),
  /** A widget's public id (the embed snippet's), null for other kinds. */
  publicId: z.string().nullable(),
  /** Where replies are POSTed; null for none, and for a platform channel (its adapter sends them). */
  webhookUrl: z.string().nullable(),
  /** A platform channel (Telegram, ...): whether its credentials are stored; they are never returned. */
  hasSecrets: z.boolean(),
  /** Whether a signing secret is set; the secret itself is shown once, on create or rotation. */
  hasWebhookSecret: z.boolean(),
  /** Until when deliveries are also signed with the secret before the last rotation; null when not. */
  webhookSecretPreviousExpiresAt: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type ChannelDto = z.infer<typeof channelRecord>;

/** What the console pastes into a platform after a create or an edit of its credentials. */
export const platformSetup = z.object({
  /** The URL the platform calls (Chatwoot's carries its secret: keep it private). */
  inboundUrl: z.string(),
  /** True when Switchboard registered the webhook at the platform itself (Telegram's setWebhook). */
  webhookRegistered: z.boolean(),
  /** WhatsApp: the verify token to paste beside the callback URL. */
  verifyToken: z.string().optional(),
});

/** Create: the signing secret, this once (and a platform channel's setup). */
export const createdChannel = channelRecord.extend({ webhookSecret: z.string().describe('The webhook signing secret (whsec_...): shown in this answer only.'), platform: platformSetup.optional() });
export const updatedChannel = channelRecord.extend({ platform: platformSetup.optional() });
export const deletedChannel = channelRecord.extend({
  /** A platform channel: whether its webhook was removed at the platform. */
  platform: z.object({ ok: z.boolean(), error: z.string().optional() }).optional(),
});
export const rotatedSecret = z.object({
  id: z.uuid(),
  webhookSecret: z.string().describe('The new signing secret: shown in this answer only.'),
  webhookSecretPreviousExpiresAt: z.date().nullable(),
});

export function toChannelDto({ webhookSecretEncrypted, webhookSecretPreviousExpiresAt, secretsEncrypted, ...rest }: ChannelRow): ChannelDto {
  const now = new Date();
  return {
    ...rest,
    // A platform channel's replies go through its adapter: the internal address is not a URL to show.
    // A URL with credentials: saving one is refused; one stored before that rule is shown masked (https://***@host/).
    webhookUrl: rest.webhookUrl === null || adapterKindOfUrl(rest.webhookUrl) ? null : maskUrlCredentials(rest.webhookUrl),
    hasSecrets: secretsEncrypted !== null,
    hasWebhookSecret: webhookSecretEncrypted !== null,
    webhookSecretPreviousExpiresAt: webhookSecretPreviousExpiresAt && webhookSecretPreviousExpiresAt > now ? webhookSecretPreviousExpiresAt : null,
  };
}

const webhookUrl = z
  .string()
  .url()
  .max(2000)
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

export const createChannelBody = z.strictObject({
  tenantId: z.string().optional(),
  agentId: z.string().uuid(),
  name: z.string().trim().min(1).max(200),
  /**
   * `widget`: a web widget (docs/widget.md), whose `settings` are checked by parseWidgetChannelSettings;
   * a platform (`telegram`, ...; docs/channels.md), whose `settings` and write-only `secrets` are its adapter's.
   */
  kind: z.enum(['api', 'widget', ...ADAPTER_KINDS]).default('api'),
  settings: z.unknown().optional(),
  secrets: z.unknown().optional(),
  webhookUrl: webhookUrl.nullable().optional(),
});
export type CreateChannelBody = z.infer<typeof createChannelBody>;

// Whole records come back from react-admin: read-only keys are dropped.
export const updateChannelBody = z.object({
  agentId: z.string().uuid().optional(),
  name: z.string().trim().min(1).max(200).optional(),
  /** Replaces the kind's settings (a widget's: checked as on create). */
  settings: z.unknown().optional(),
  /** A platform channel: credentials to replace, key by key (write-only). */
  secrets: z.unknown().optional(),
  webhookUrl: webhookUrl.nullable().optional(),
});
export type UpdateChannelBody = z.infer<typeof updateChannelBody>;

/**
 * `POST channels/:id/rotate-secret`: how long the replaced secret still signs deliveries beside
 * the new one (0 = not at all), so receivers can switch without refusing a delivery. No body:
 * the default (24 h).
 */
export const rotateSecretBody = z
  .strictObject({ graceSeconds: z.number().int().min(0).max(MAX_SECRET_GRACE_SECONDS).default(DEFAULT_SECRET_GRACE_SECONDS) })
  .prefault({});
export type RotateSecretBody = z.infer<typeof rotateSecretBody>;

export const channelsListSpec: ListSpec<Prisma.ChannelWhereInput> = {
  resource: 'channels',
  sortFields: ['name', 'createdAt', 'updatedAt', 'id'],
  defaultSort: ['name', 'asc'],
  tieBreaker: 'id',
  filters: { id: uuidFilter('id'), tenantId: uuidFilter('tenantId'), agentId: uuidFilter('agentId'), q: textContainsFilter('name') },
};

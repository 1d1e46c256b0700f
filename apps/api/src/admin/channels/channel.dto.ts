import type { Prisma } from '@switchboard/db';
import { maskUrlCredentials } from '@switchboard/outbound';
import { ADAPTER_KINDS, adapterKindOfUrl, DEFAULT_SECRET_GRACE_SECONDS, MAX_SECRET_GRACE_SECONDS } from '@switchboard/webhooks';
import { z } from 'zod';
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

export interface ChannelDto extends Omit<ChannelRow, 'webhookSecretEncrypted' | 'secretsEncrypted'> {
  /** A platform channel (Telegram, ...): whether its credentials are stored; they are never returned. */
  hasSecrets: boolean;
  /** Whether a signing secret is set; the secret itself is shown once, on create or rotation. */
  hasWebhookSecret: boolean;
  /** Until when deliveries are also signed with the secret before the last rotation; null when not. */
  webhookSecretPreviousExpiresAt: Date | null;
}

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

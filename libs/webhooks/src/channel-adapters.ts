import { z } from 'zod';

// Channel adapters (docs/channels.md): a channel of one of these kinds is a platform's chat
// (Telegram, WhatsApp Cloud API, Chatwoot). Its inbound route is /v1/channels/<kind>/<channel
// id>; its replies are deliveries like a webhook's, whose `url` names the adapter instead of an
// HTTP address, so the same dispatcher (order, retries, dead letters, redrive) sends them.

export const ADAPTER_KINDS = ['telegram', 'whatsapp', 'slack', 'chatwoot'] as const;
export type AdapterKind = (typeof ADAPTER_KINDS)[number];

export function isAdapterKind(kind: string): kind is AdapterKind {
  return (ADAPTER_KINDS as readonly string[]).includes(kind);
}

/** Scheme of a delivery `url` (and of the channel's webhookUrl) that an adapter sends, not an HTTP POST. */
const ADAPTER_URL_SCHEME = 'switchboard-adapter:';

export function adapterDeliveryUrl(kind: AdapterKind): string {
  return `${ADAPTER_URL_SCHEME}${kind}`;
}

/** The adapter kind a delivery url names; null for a real webhook URL. */
export function adapterKindOfUrl(url: string | null | undefined): AdapterKind | null {
  if (!url?.startsWith(ADAPTER_URL_SCHEME)) return null;
  const kind = url.slice(ADAPTER_URL_SCHEME.length);
  return isAdapterKind(kind) ? kind : null;
}

const httpRoot = z
  .string()
  .url()
  .max(500)
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
  .transform((u) => u.replace(/\/+$/, ''));

/** Non-secret settings per kind, as the console edits them; API roots point tests at fake servers. */
export const adapterSettingsSchemas = {
  telegram: z.strictObject({
    /** The Bot API root (a local Bot API server, or a test's fake). */
    apiRoot: httpRoot.default('https://api.telegram.org'),
  }),
  whatsapp: z.strictObject({
    /** The Graph API root and version. */
    apiRoot: httpRoot.default('https://graph.facebook.com'),
    apiVersion: z.string().regex(/^v\d+\.\d+$/, 'must look like v21.0').default('v21.0'),
    phoneNumberId: z.string().regex(/^\d{1,30}$/, 'must be the numeric phone number id'),
    /** Sent instead of a reply outside the 24-hour window; absent: such a reply is dead-lettered. */
    template: z.strictObject({ name: z.string().min(1).max(512), language: z.string().min(2).max(15) }).nullable().default(null),
  }),
  slack: z.strictObject({
    /** Slack's Web API root (the client calls <root>/api/<method>). */
    apiRoot: httpRoot.default('https://slack.com'),
  }),
  chatwoot: z.strictObject({
    /** The Chatwoot installation (https://app.chatwoot.com or self-hosted). */
    baseUrl: httpRoot,
    accountId: z.coerce.number().int().positive(),
  }),
} as const;

/** Credentials per kind as the console writes them (write-only: never returned). */
export const adapterSecretInputSchemas = {
  telegram: z.strictObject({ botToken: z.string().regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, 'must be a bot token from @BotFather (123456:ABC...)') }),
  whatsapp: z.strictObject({ appSecret: z.string().min(8).max(200), accessToken: z.string().min(8).max(1000) }),
  slack: z.strictObject({
    botToken: z.string().regex(/^xoxb-[A-Za-z0-9-]{10,300}$/, 'must be a bot token (xoxb-...)'),
    signingSecret: z.string().regex(/^[0-9a-f]{16,128}$/, 'must be the app\'s signing secret (hex)'),
  }),
  chatwoot: z.strictObject({ agentBotToken: z.string().min(8).max(500) }),
} as const;

type SchemaKind = keyof typeof adapterSettingsSchemas;
export type AdapterSettings<K extends SchemaKind = AdapterKind> = z.output<(typeof adapterSettingsSchemas)[K]>;
export type TelegramSettings = AdapterSettings<'telegram'>;
export type WhatsAppSettings = AdapterSettings<'whatsapp'>;
export type ChatwootSettings = AdapterSettings<'chatwoot'>;
export type SlackSettings = AdapterSettings<'slack'>;

/**
 * What is sealed in the channel's secretsEncrypted: the tenant's credentials plus the secret
 * Switchboard made for the platform to prove itself (Telegram's secret token, WhatsApp's verify
 * token, the secret in Chatwoot's webhook URL).
 */
export interface AdapterSecrets {
  telegram: { botToken: string; webhookSecretToken: string };
  whatsapp: { appSecret: string; accessToken: string; verifyToken: string };
  slack: { botToken: string; signingSecret: string };
  chatwoot: { agentBotToken: string; urlSecret: string };
}

/** The settings stored on a channel, read back (defaults filled); throws when they do not fit. */
export function readAdapterSettings<K extends AdapterKind>(kind: K, stored: unknown): AdapterSettings<K> {
  return adapterSettingsSchemas[kind].parse(stored) as AdapterSettings<K>;
}

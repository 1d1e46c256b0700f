import { randomBytes } from 'node:crypto';
import { adapterSecretInputSchemas, adapterSettingsSchemas, type AdapterKind } from '@switchboard/webhooks';
import type { z } from 'zod';
import { ValidationFailedError } from '../common/errors';
import { issuesToDetails } from '../common/validation/zod-validation.pipe';

/** A secret Switchboard makes for the platform to prove itself with (Telegram allows A-Z a-z 0-9 _ -). */
function newPlatformSecret(): string {
  return randomBytes(32).toString('base64url');
}

function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, field: 'settings' | 'secrets', kind: string): z.output<T> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const details = issuesToDetails(parsed.error.issues, 'body').map((d) => ({ ...d, path: d.path ? `${field}.${d.path}` : field }));
  throw new ValidationFailedError(`Invalid ${kind} ${field}: ${[...new Set(details.map((d) => d.path))].join(', ')}. See error.details.`, details);
}

/** The settings of a platform channel as the console sends them, checked (400 validation-failed at settings.<path>). */
export function parseAdapterSettings(kind: AdapterKind, input: unknown): Record<string, unknown> {
  return parseOrThrow(adapterSettingsSchemas[kind], input, 'settings', kind) as Record<string, unknown>;
}

/**
 * The credentials to seal for a new platform channel: the tenant's (checked) plus the secret
 * Switchboard makes for the platform to prove itself with.
 */
export function newAdapterSecrets(kind: AdapterKind, input: unknown): { all: Record<string, string>; made: Record<string, string> } {
  const given = parseOrThrow(adapterSecretInputSchemas[kind], input, 'secrets', kind) as Record<string, string>;
  const made = madeSecrets(kind);
  return { all: { ...given, ...made }, made };
}

/** Telegram's secret_token (sent back in a header), WhatsApp's verify token, the secret in Chatwoot's URL. */
function madeSecrets(kind: AdapterKind): Record<string, string> {
  switch (kind) {
    case 'telegram':
      return { webhookSecretToken: newPlatformSecret() };
    case 'whatsapp':
      return { verifyToken: newPlatformSecret() };
    case 'chatwoot':
      return { urlSecret: newPlatformSecret() };
    case 'slack':
      // Slack signs with the app's signing secret, which the tenant gives.
      return {};
  }
}

/** An edit's credentials: the ones given replace the stored ones key by key; made secrets stay. */
export function mergeAdapterSecrets(kind: AdapterKind, stored: Record<string, string>, input: unknown): Record<string, string> {
  const given = parseOrThrow(adapterSecretInputSchemas[kind].partial(), input, 'secrets', kind) as Record<string, string | undefined>;
  const merged = { ...stored };
  for (const [k, v] of Object.entries(given)) if (v !== undefined) merged[k] = v;
  return merged;
}

/** The URL the platform calls (Telegram gets it through setWebhook; the others are pasted by the tenant). */
export function inboundUrl(publicOrigin: string, kind: AdapterKind, channelId: string, urlSecret?: string): string {
  const url = `${publicOrigin.replace(/\/+$/, '')}/v1/channels/${kind}/${channelId}`;
  return urlSecret ? `${url}?secret=${encodeURIComponent(urlSecret)}` : url;
}

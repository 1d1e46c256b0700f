import { randomBytes } from 'node:crypto';

/** How Standard Webhooks secrets are shown, so people (and libraries) recognise them. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Key sizes the Standard Webhooks specification allows for HMAC-SHA256 secrets. */
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

/** A new channel signing secret: `whsec_` + 32 random bytes in standard base64 (the spec's form). */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export interface WebhookSigningKey {
  /** The HMAC-SHA256 key. */
  key: Buffer;
  /**
   * A secret made before Standard Webhooks (`whsec_` + base64url, no padding). Its key is the
   * secret's own characters, as the old `x-switchboard-signature` used it, so receivers holding
   * it keep verifying without a new secret (docs/webhooks.md, "Secrets made before").
   */
  legacy: boolean;
}

/** The signing key of a stored secret: the base64 after `whsec_`, or a legacy secret's characters. */
export function webhookSigningKey(secret: string): WebhookSigningKey {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : undefined;
  if (encoded !== undefined && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) && encoded.length % 4 === 0) {
    const key = Buffer.from(encoded, 'base64');
    if (key.length >= MIN_KEY_BYTES && key.length <= MAX_KEY_BYTES) return { key, legacy: false };
  }
  return { key: Buffer.from(secret, 'utf8'), legacy: true };
}

import { createHmac } from 'node:crypto';
import { webhookSigningKey } from '@switchboard/webhooks';
import { Webhook } from 'standardwebhooks';

/**
 * The signature header before Standard Webhooks: `t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
 * Still sent while a channel's secret is one made before (docs/webhooks.md, "Secrets made before").
 */
export const LEGACY_SIGNATURE_HEADER = 'x-switchboard-signature';

export interface WebhookToSign {
  /** `webhook-id`: the delivery's id, the same on every attempt. */
  id: string;
  /** The exact body that is sent. */
  body: string;
  /** The channel's valid secrets, current first (two during a rotation's grace period). */
  secrets: readonly string[];
  /** When this attempt is signed. */
  at: Date;
}

/**
 * The headers that sign one attempt, the Standard Webhooks way: `webhook-id`, `webhook-timestamp`
 * and `webhook-signature` with one `v1,<base64>` per valid secret (space-separated), computed by
 * the `standardwebhooks` library receivers verify with. A channel without a secret gets the id
 * and timestamp but no signature.
 */
export function signWebhook({ id, body, secrets, at }: WebhookToSign): Record<string, string> {
  const seconds = Math.floor(at.getTime() / 1000);
  const headers: Record<string, string> = { 'webhook-id': id, 'webhook-timestamp': String(seconds) };
  const keys = secrets.map(webhookSigningKey);
  if (keys.length > 0) headers['webhook-signature'] = keys.map(({ key }) => new Webhook(key, { format: 'raw' }).sign(id, at, body)).join(' ');
  const legacy = keys.find((k) => k.legacy);
  if (legacy) headers[LEGACY_SIGNATURE_HEADER] = legacySignature(legacy.key, body, seconds);
  return headers;
}

/** The old scheme's value: the timestamp is inside the MAC, so a captured request cannot be replayed later as new. */
export function legacySignature(key: Buffer, body: string, timestampSeconds: number): string {
  const mac = createHmac('sha256', key).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}

import { randomBytes } from 'node:crypto';

/** A new webhook signing secret: 32 random bytes, prefixed so people recognise what it is. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

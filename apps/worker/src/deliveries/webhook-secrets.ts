import { SECRET_CONTEXTS, type SecretBox } from '../secrets/secret-box';

/** A channel's sealed signing secrets as stored: the current one and, during a rotation, the one before. */
export interface SealedWebhookSecrets {
  webhookSecretEncrypted: string | null;
  webhookSecretPreviousEncrypted: string | null;
  webhookSecretPreviousExpiresAt: Date | null;
}

/** The secrets an attempt is signed with at `now`: the current one, then the previous one until its grace period ends. */
export function openWebhookSecrets(box: SecretBox, tenantId: string, sealed: SealedWebhookSecrets, now: Date): string[] {
  const context = SECRET_CONTEXTS.channelWebhook(tenantId);
  const secrets: string[] = [];
  if (sealed.webhookSecretEncrypted) secrets.push(box.decrypt(sealed.webhookSecretEncrypted, context));
  const previousValid = sealed.webhookSecretPreviousExpiresAt !== null && sealed.webhookSecretPreviousExpiresAt > now;
  if (sealed.webhookSecretPreviousEncrypted && previousValid) secrets.push(box.decrypt(sealed.webhookSecretPreviousEncrypted, context));
  return secrets;
}

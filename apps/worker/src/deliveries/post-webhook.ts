import { WEBHOOK_TIMEOUT_MS } from '@switchboard/webhooks';
import { guardedHttpCall, type HttpCallResult } from '../http-tools/guarded-http-call';
import { signWebhook } from './webhook-signature';
/** What is read of the receiver's answer: its status matters, its body only for errors and tests. */
export const WEBHOOK_MAX_RESPONSE_BYTES = 64 * 1024;

export interface WebhookAttempt {
  url: string;
  /** `webhook-id`: the delivery's id, the same on every attempt. */
  id: string;
  /** The JSON payload, sent and signed byte for byte. */
  body: string;
  /** The channel's valid signing secrets (webhook-secrets.ts). */
  secrets: readonly string[];
  allowedHosts: ReadonlySet<string>;
  at?: Date;
}

/**
 * POSTs one signed webhook attempt through the outbound guard (the URL is the tenant's: no
 * private addresses, no redirects). Used by the delivery dispatcher and by test deliveries, so a
 * test is signed and guarded exactly like a real delivery. Throws the guard's or the client's
 * error when no answer came; any HTTP status is an answer.
 */
export function postWebhook(a: WebhookAttempt): Promise<HttpCallResult> {
  return guardedHttpCall({
    method: 'POST',
    url: a.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'switchboard-webhook',
      // The delivery id under its name from before Standard Webhooks (= webhook-id).
      'x-switchboard-delivery': a.id,
      ...signWebhook({ id: a.id, body: a.body, secrets: a.secrets, at: a.at ?? new Date() }),
    },
    originHeaders: {},
    body: a.body,
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    maxResponseBytes: WEBHOOK_MAX_RESPONSE_BYTES,
    allowedHosts: a.allowedHosts,
    maxRedirects: 0,
  });
}

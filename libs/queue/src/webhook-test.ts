import type { JobsOptions } from 'bullmq';

/** A console test delivery to one channel's webhook URL, as it is saved. */
export interface WebhookTestJobData {
  tenantId: string;
  channelId: string;
}

/** The receiver answered (any status): what it said, the body cut at a display cap. */
export interface WebhookTestResponse {
  ok: true;
  /** The `webhook-id` (and `deliveryId`) the test event carried. */
  webhookId: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** True when `body` was cut at the display cap. */
  truncated: boolean;
  ms: number;
}

/** No answer came: the outbound guard refused the address, the receiver timed out or could not be reached. */
export interface WebhookTestFailure {
  ok: false;
  webhookId: string;
  error: { code: string; message: string };
  ms: number;
}

export type WebhookTestResult = WebhookTestResponse | WebhookTestFailure;

/** One attempt (a test is not retried behind the user's back), gone from the queue soon after. */
export const WEBHOOK_TEST_JOB_OPTIONS = {
  attempts: 1,
  removeOnComplete: { age: 300 },
  removeOnFail: { age: 300 },
} as const satisfies JobsOptions;

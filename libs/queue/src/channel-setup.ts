import type { JobsOptions } from 'bullmq';

/**
 * Connect a channel adapter at its platform (Telegram: setWebhook with the secret token) or
 * disconnect it before the channel is deleted (deleteWebhook). The worker reads the channel row.
 */
export interface ChannelSetupJobData {
  tenantId: string;
  channelId: string;
  action: 'connect' | 'disconnect';
  /** connect: the public URL the platform is to call. */
  webhookUrl?: string;
}

export type ChannelSetupResult = { ok: true; done: boolean } | { ok: false; error: { code: string; message: string } };

export const CHANNEL_SETUP_JOB_OPTIONS = {
  attempts: 1,
  removeOnComplete: { age: 300 },
  removeOnFail: { age: 300 },
} as const satisfies JobsOptions;

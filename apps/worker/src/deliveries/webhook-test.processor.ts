import { randomUUID } from 'node:crypto';
import { Inject, Logger } from '@nestjs/common';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { PrismaService } from '@switchboard/db';
import { QUEUES, type WebhookTestJobData, type WebhookTestResult } from '@switchboard/queue';
import { testEvent } from '@switchboard/webhooks';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { flatHeaders } from '../http-tools/flat-headers';
import { SecretBox } from '../secrets/secret-box';
import { postWebhook } from './post-webhook';
import { openWebhookSecrets } from './webhook-secrets';

/** The receiver's answer kept for the console: an excerpt is enough to see what it said. */
export const TEST_DELIVERY_BODY_CHARS = 2000;

/** The outbound client's error codes (`http-tool-timeout`, ...) under the webhook's name (`webhook-timeout`, ...). */
function webhookError(err: unknown): { code: string; message: string } {
  const code = (err as { code?: unknown }).code;
  return {
    code: typeof code === 'string' && code.startsWith('http-tool-') ? `webhook-${code.slice('http-tool-'.length)}` : 'webhook-error',
    message: err instanceof Error ? err.message : String(err),
  };
}

/**
 * Console test deliveries (`{webhook-tests}`): a `webhook.test` event to the channel's saved
 * webhook URL, signed and guarded exactly like a real delivery (postWebhook), and the receiver's
 * answer for the API to show. A refusal, timeout or network error is a result, not a failed job.
 */
@Processor(QUEUES.webhookTests, { concurrency: 4 })
export class WebhookTestProcessor extends WorkerHost {
  private readonly logger = new Logger(WebhookTestProcessor.name);
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(
    @Inject(WORKER_ENV) env: WorkerEnv,
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {
    super();
    this.allowedHosts = new Set(env.OUTBOUND_ALLOWED_HOSTS);
  }

  async process(job: Job<WebhookTestJobData>): Promise<WebhookTestResult> {
    const { tenantId, channelId } = job.data;
    const webhookId = randomUUID();
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    const channel = await this.prisma.channel.findFirst({
      where: { id: channelId, tenantId },
      select: { webhookUrl: true, webhookSecretEncrypted: true, webhookSecretPreviousEncrypted: true, webhookSecretPreviousExpiresAt: true },
    });
    if (!channel?.webhookUrl) {
      const error = { code: 'webhook-not-configured', message: 'The channel was deleted or lost its webhook URL before the test ran.' };
      return { ok: false, webhookId, error, ms: ms() };
    }
    const at = new Date();
    try {
      const res = await postWebhook({
        url: channel.webhookUrl,
        id: webhookId,
        body: JSON.stringify(testEvent({ deliveryId: webhookId, channelId, at })),
        secrets: openWebhookSecrets(this.secrets, tenantId, channel, at),
        allowedHosts: this.allowedHosts,
        at,
      });
      this.logger.log({ msg: 'test delivery', channelId, tenantId, status: res.status });
      return {
        ok: true,
        webhookId,
        status: res.status,
        headers: flatHeaders(res.headers),
        body: res.body.slice(0, TEST_DELIVERY_BODY_CHARS),
        truncated: res.body.length > TEST_DELIVERY_BODY_CHARS,
        ms: ms(),
      };
    } catch (err) {
      const error = webhookError(err);
      this.logger.log({ msg: 'test delivery failed', channelId, tenantId, code: error.code });
      return { ok: false, webhookId, error, ms: ms() };
    }
  }
}

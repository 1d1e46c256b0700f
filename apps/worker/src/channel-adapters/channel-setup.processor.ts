import { Inject, Logger } from '@nestjs/common';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { PrismaService } from '@switchboard/db';
import { QUEUES, type ChannelSetupJobData, type ChannelSetupResult } from '@switchboard/queue';
import { isAdapterKind, readAdapterSettings } from '@switchboard/webhooks';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { SECRET_CONTEXTS, SecretBox } from '../secrets/secret-box';
import { ChannelAdapters } from './channel-adapters';

/**
 * `{channel-setup}`: registers a new adapter channel's webhook at its platform (Telegram's
 * setWebhook with the secret token) or removes it before the channel is deleted. The API waits
 * for the result; a platform's refusal is a result (`ok: false` with its words), not a failed job.
 */
@Processor(QUEUES.channelSetup, { concurrency: 2 })
export class ChannelSetupProcessor extends WorkerHost {
  private readonly logger = new Logger(ChannelSetupProcessor.name);
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(
    @Inject(WORKER_ENV) env: WorkerEnv,
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
    private readonly adapters: ChannelAdapters,
  ) {
    super();
    this.allowedHosts = new Set(env.OUTBOUND_ALLOWED_HOSTS);
  }

  async process(job: Job<ChannelSetupJobData>): Promise<ChannelSetupResult> {
    const { tenantId, channelId, action, webhookUrl } = job.data;
    const channel = await this.prisma.channel.findFirst({ where: { id: channelId, tenantId }, select: { kind: true, settings: true, secretsEncrypted: true } });
    if (!channel || !isAdapterKind(channel.kind) || !channel.secretsEncrypted) {
      return { ok: false, error: { code: 'channel-not-found', message: `Channel ${channelId} is gone or is not a platform channel.` } };
    }
    const adapter = this.adapters.get(channel.kind);
    const settings = readAdapterSettings(channel.kind, channel.settings);
    const secrets = JSON.parse(this.secrets.decrypt(channel.secretsEncrypted, SECRET_CONTEXTS.channelSecrets(tenantId))) as unknown;
    try {
      if (action === 'connect') {
        if (!adapter.connect || !webhookUrl) return { ok: true, done: false };
        await adapter.connect(settings, secrets, webhookUrl, this.allowedHosts);
      } else {
        if (!adapter.disconnect) return { ok: true, done: false };
        await adapter.disconnect(settings, secrets, this.allowedHosts);
      }
      this.logger.log({ msg: `channel ${action}ed at its platform`, channelId, tenantId, kind: channel.kind });
      return { ok: true, done: true };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const error = { code: typeof code === 'string' ? code : 'channel-setup-failed', message: (err as Error).message };
      this.logger.warn({ msg: `channel ${action} failed`, channelId, tenantId, code: error.code });
      return { ok: false, error };
    }
  }
}

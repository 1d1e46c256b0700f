import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { SecretBox } from '../secrets/secret-box';
import { PeriodicTask } from '../periodic/periodic-task';
import { adapterKindOfUrl } from '@switchboard/webhooks';
import { AdapterDeliveries } from '../channel-adapters/adapter-deliveries';
import type { SendOutcome } from '../channel-adapters/platform-call';
import { postWebhook } from './post-webhook';
import { webhookBody, type DeliveryFacts } from './webhook-body';
import { openWebhookSecrets, type SealedWebhookSecrets } from './webhook-secrets';

/** How long a claimed delivery is ours before another worker may try it (longer than one POST). */
const CLAIM_MS = 60_000;
const MAX_BACKOFF_MS = 10 * 60_000;
const BATCH = 20;

interface DueDelivery extends DeliveryFacts, SealedWebhookSecrets {
  tenantId: string;
  url: string;
  createdAt: Date;
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'dead';

/**
 * POSTs replies to channels that have a webhook, in order per session: a session's next reply
 * waits until the previous one is delivered or dead-lettered; events that are not replies (a
 * hand-off) go at once. Each POST is signed the Standard Webhooks way (webhook-signature.ts),
 * goes through the SSRF guard, and is retried with exponential backoff
 * until DELIVERY_MAX_ATTEMPTS or DELIVERY_MAX_AGE_MS, then marked `dead` with its last error.
 * Deliveries are rows in Postgres (written in the turn's commit), so any worker can send them:
 * a conditional update claims one, so two workers never send the same attempt.
 */
@Injectable()
export class DeliveryDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliveryDispatcher.name);
  private readonly periodic = new PeriodicTask(this.logger, 'delivery round failed', () => this.tick());
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(
    @Inject(WORKER_ENV) private readonly env: WorkerEnv,
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
    private readonly adapters: AdapterDeliveries,
  ) {
    this.allowedHosts = new Set(env.OUTBOUND_ALLOWED_HOSTS);
  }

  onApplicationBootstrap(): void {
    this.periodic.start(this.env.DELIVERY_POLL_MS);
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic.stop();
  }

  /** Sends every delivery due now (the head of each session's line); returns what happened to each. */
  async tick(now = new Date()): Promise<DeliveryOutcome[]> {
    const due = await this.prisma.$queryRaw<DueDelivery[]>`
      SELECT d."id", d."tenantId", d."channelId", d."messageId", d."url", d."createdAt", d."payload",
             m."sessionId", s."externalKey" AS "sessionKey", m."text", m."kind", m."createdAt" AS "messageCreatedAt", m."visibleAt",
             c."webhookSecretEncrypted", c."webhookSecretPreviousEncrypted", c."webhookSecretPreviousExpiresAt"
      FROM "Delivery" d
      -- An event that is not a reply has no message and waits for none (NOT EXISTS below is true).
      LEFT JOIN "Message" m ON m."id" = d."messageId"
      LEFT JOIN "Session" s ON s."id" = m."sessionId"
      JOIN "Channel" c ON c."id" = d."channelId"
      WHERE d."status" IN ('pending', 'failed')
        AND d."nextAttemptAt" <= ${now}
        AND NOT EXISTS (
          SELECT 1 FROM "Delivery" d2 JOIN "Message" m2 ON m2."id" = d2."messageId"
          WHERE m2."sessionId" = m."sessionId" AND m2."seq" < m."seq" AND d2."status" IN ('pending', 'failed'))
      ORDER BY d."nextAttemptAt"
      LIMIT ${BATCH}`;
    const outcomes: DeliveryOutcome[] = [];
    for (const d of due) {
      const claimed = await this.prisma.delivery.updateMany({
        where: { id: d.id, status: { in: ['pending', 'failed'] }, nextAttemptAt: { lte: now } },
        data: { nextAttemptAt: new Date(Date.now() + CLAIM_MS), attempts: { increment: 1 } },
      });
      if (claimed.count === 1) outcomes.push(await this.send(d));
    }
    return outcomes;
  }

  private async send(d: DueDelivery): Promise<DeliveryOutcome> {
    const adapterKind = adapterKindOfUrl(d.url);
    if (adapterKind) return this.settle(d, await this.adapters.send(adapterKind, d).catch((err: Error) => ({ ok: false as const, error: err.message })));
    let status: number | undefined;
    let error: string | undefined;
    try {
      const res = await postWebhook({
        url: d.url,
        id: d.id,
        body: webhookBody(d),
        secrets: openWebhookSecrets(this.secrets, d.tenantId, d, new Date()),
        allowedHosts: this.allowedHosts,
      });
      status = res.status;
      if (res.status >= 200 && res.status < 300) {
        await this.prisma.delivery.update({
          where: { id: d.id },
          data: { status: 'delivered', deliveredAt: new Date(), lastStatusCode: res.status, lastError: null, nextAttemptAt: null },
        });
        return 'delivered';
      }
      error = `HTTP ${res.status}: ${res.body.slice(0, 300)}`;
    } catch (err) {
      error = (err as Error).message;
    }
    return this.settle(d, { ok: false, status, error: error ?? 'no answer' });
  }

  /**
   * Records an attempt's outcome: delivered; or failed with exponential backoff (never sooner
   * than a platform's retry_after); or dead after the last attempt, the maximum age, or an
   * outcome that says retrying cannot help (its code leads lastError).
   */
  private async settle(d: DueDelivery, outcome: SendOutcome): Promise<DeliveryOutcome> {
    if (outcome.ok) {
      await this.prisma.delivery.update({
        where: { id: d.id },
        data: { status: 'delivered', deliveredAt: new Date(), lastStatusCode: null, lastError: null, nextAttemptAt: null },
      });
      return 'delivered';
    }
    const status = 'status' in outcome ? outcome.status : undefined;
    const error = 'dead' in outcome ? `${outcome.code}: ${outcome.error}` : outcome.error;
    const row = await this.prisma.delivery.findUniqueOrThrow({ where: { id: d.id }, select: { attempts: true } });
    const dead =
      'dead' in outcome || row.attempts >= this.env.DELIVERY_MAX_ATTEMPTS || Date.now() - d.createdAt.getTime() >= this.env.DELIVERY_MAX_AGE_MS;
    const retryAfterMs = 'retryAfterMs' in outcome ? (outcome.retryAfterMs ?? 0) : 0;
    const backoff = Math.max(Math.min(this.env.DELIVERY_BACKOFF_MS * 2 ** (row.attempts - 1), MAX_BACKOFF_MS), retryAfterMs);
    await this.prisma.delivery.update({
      where: { id: d.id },
      data: {
        status: dead ? 'dead' : 'failed',
        lastStatusCode: status ?? null,
        lastError: error?.slice(0, 1000) ?? null,
        nextAttemptAt: dead ? null : new Date(Date.now() + backoff),
      },
    });
    if (dead) this.logger.warn({ msg: 'delivery dead-lettered', deliveryId: d.id, attempts: row.attempts, error });
    return dead ? 'dead' : 'failed';
  }
}

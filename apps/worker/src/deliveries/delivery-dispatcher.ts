import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { guardedHttpCall } from '../http-tools/guarded-http-call';
import { SECRET_CONTEXTS, SecretBox } from '../secrets/secret-box';
import { SIGNATURE_HEADER, signWebhook } from './webhook-signature';
import { PeriodicTask } from '../periodic/periodic-task';

/** How long a claimed delivery is ours before another worker may try it (longer than one POST). */
const CLAIM_MS = 60_000;
const POST_TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 10 * 60_000;
const BATCH = 20;

interface DueDelivery {
  id: string;
  tenantId: string;
  channelId: string;
  messageId: string;
  url: string;
  createdAt: Date;
  sessionId: string;
  sessionKey: string;
  text: string;
  messageCreatedAt: Date;
  webhookSecretEncrypted: string | null;
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'dead';

/**
 * POSTs replies to channels that have a webhook, in order per session: a session's next reply
 * waits until the previous one is delivered or dead-lettered. Each POST is signed (HMAC-SHA256
 * over timestamp and body), goes through the SSRF guard, and is retried with exponential backoff
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
      SELECT d."id", d."tenantId", d."channelId", d."messageId", d."url", d."createdAt",
             m."sessionId", s."externalKey" AS "sessionKey", m."text", m."createdAt" AS "messageCreatedAt",
             c."webhookSecretEncrypted"
      FROM "Delivery" d
      JOIN "Message" m ON m."id" = d."messageId"
      JOIN "Session" s ON s."id" = m."sessionId"
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
    const body = JSON.stringify({
      deliveryId: d.id,
      messageId: d.messageId,
      sessionId: d.sessionId,
      session: d.sessionKey,
      channelId: d.channelId,
      text: d.text,
      createdAt: d.messageCreatedAt.toISOString(),
    });
    let status: number | undefined;
    let error: string | undefined;
    try {
      const secret = d.webhookSecretEncrypted ? this.secrets.decrypt(d.webhookSecretEncrypted, SECRET_CONTEXTS.channelWebhook(d.tenantId)) : undefined;
      const res = await guardedHttpCall({
        method: 'POST',
        url: d.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'switchboard-webhook',
          'x-switchboard-delivery': d.id,
          ...(secret && { [SIGNATURE_HEADER]: signWebhook(secret, body, Math.floor(Date.now() / 1000)) }),
        },
        originHeaders: {},
        body,
        timeoutMs: POST_TIMEOUT_MS,
        maxResponseBytes: 64 * 1024,
        allowedHosts: this.allowedHosts,
        maxRedirects: 0,
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
    const row = await this.prisma.delivery.findUniqueOrThrow({ where: { id: d.id }, select: { attempts: true } });
    const dead = row.attempts >= this.env.DELIVERY_MAX_ATTEMPTS || Date.now() - d.createdAt.getTime() >= this.env.DELIVERY_MAX_AGE_MS;
    const backoff = Math.min(this.env.DELIVERY_BACKOFF_MS * 2 ** (row.attempts - 1), MAX_BACKOFF_MS);
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

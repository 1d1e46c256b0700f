import { Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { WebhookTestResult } from '@switchboard/queue';
import { WEBHOOK_TIMEOUT_MS } from '@switchboard/webhooks';
import { z } from 'zod';
import { ResourceNotFoundError } from '../admin-errors';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { withoutCredentials } from '../deliveries/delivery.dto';
import { isUuid } from '../list-query/filters';
import { tenantScope } from '../tenant-scope';
import { ChannelHasNoWebhookError } from './test-delivery.errors';
import { TestDeliveryQueue } from './test-delivery.queue';

/** Time a worker gets beyond the receiver's own time limit to pick the job up and answer. */
export const TEST_DELIVERY_GRACE_MS = 5000;

const where = { channelId: z.uuid(), url: z.string().describe("The webhook URL, without credentials.") };
/** What the receiver answered (any status), or why no answer came. */
export const testDeliveryAnswer = z.discriminatedUnion('ok', [
  z.object({
    ...where,
    ok: z.literal(true),
    /** The `webhook-id` (and `deliveryId`) the test event carried. */
    webhookId: z.string(),
    status: z.number().int(),
    headers: z.record(z.string(), z.string()),
    /** The receiver's body, cut at a display cap. */
    body: z.string(),
    truncated: z.boolean(),
    ms: z.number(),
  }),
  z.object({ ...where, ok: z.literal(false), webhookId: z.string(), error: z.object({ code: z.string(), message: z.string() }), ms: z.number() }),
]);
export type TestDeliveryAnswer = z.infer<typeof testDeliveryAnswer> & WebhookTestResult;

/**
 * A console test delivery: a worker (the component that makes real deliveries, with the secrets
 * and the outbound guard) sends a signed `webhook.test` event to the channel's saved webhook
 * URL; the API waits for the receiver's answer, records the test in the audit log and shows it.
 */
@Injectable()
export class SendTestDelivery {
  constructor(
    private readonly prisma: PrismaService,
    private readonly queue: TestDeliveryQueue,
  ) {}

  async run(user: AdminUser, id: string): Promise<TestDeliveryAnswer> {
    const channel = isUuid(id)
      ? await this.prisma.channel.findFirst({ where: { id, ...tenantScope(user) }, select: { id: true, tenantId: true, webhookUrl: true } })
      : null;
    if (!channel) throw new ResourceNotFoundError('channel', id);
    if (!channel.webhookUrl) throw new ChannelHasNoWebhookError(id);
    const result = await this.queue.run({ tenantId: channel.tenantId, channelId: channel.id }, WEBHOOK_TIMEOUT_MS + TEST_DELIVERY_GRACE_MS);
    const url = withoutCredentials(channel.webhookUrl);
    // Where it went and how it went; never the receiver's body or headers.
    await adminTransaction(this.prisma, user, (tx) =>
      recordAudit(tx, user, {
        action: 'channel.test-delivery',
        entityType: 'channel',
        entityId: channel.id,
        tenantId: channel.tenantId,
        after: { url, webhookId: result.webhookId, ...(result.ok ? { status: result.status } : { error: result.error.code }), ms: result.ms },
      }),
    );
    return { channelId: channel.id, url, ...result };
  }
}

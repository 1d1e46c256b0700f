import { scrubSecretText } from '@falai/agent';
import { Inject, Injectable } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { readAdapterSettings, type AdapterKind } from '@switchboard/webhooks';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { SECRET_CONTEXTS, SecretBox } from '../secrets/secret-box';
import type { ReplyContext, SessionEventType } from './channel-adapter';
import { ChannelAdapters } from './channel-adapters';
import type { SendOutcome } from './platform-call';
import { splitText } from './split-text';

/** What the dispatcher knows of a due delivery that an adapter sends. */
export interface AdapterDelivery {
  id: string;
  tenantId: string;
  channelId: string;
  messageId: string | null;
  /** A reply's session, or null for a stored event (then its payload names the session). */
  sessionId: string | null;
  sessionKey: string | null;
  text: string | null;
  payload: unknown;
}

/**
 * Sends a delivery whose channel is a platform (Telegram, WhatsApp, Chatwoot) through its
 * adapter instead of POSTing a webhook. A reply over the platform's limit goes as several parts,
 * in order; each part the platform accepts is counted on the delivery (partsSent) before the
 * next is sent, so a retry after a 429 or an outage resumes with the next part and nobody gets
 * a part twice. Session events (hand-off, hand-back) go to the adapter's sessionEvent.
 */
@Injectable()
export class AdapterDeliveries {
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(
    @Inject(WORKER_ENV) env: WorkerEnv,
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
    private readonly adapters: ChannelAdapters,
  ) {
    this.allowedHosts = new Set(env.OUTBOUND_ALLOWED_HOSTS);
  }

  /**
   * The outcome's error becomes the delivery's lastError, which the tenant's viewers read: the
   * channel's credentials (Telegram's token is part of its URLs) are scrubbed out of it first.
   */
  async send(kind: AdapterKind, d: AdapterDelivery): Promise<SendOutcome> {
    const ctx = await this.context(kind, d);
    const credentials = Object.values((ctx.secrets ?? {}) as Record<string, unknown>).filter((v): v is string => typeof v === 'string');
    const outcome = await this.sendWith(kind, d, ctx).catch((err: Error): SendOutcome => ({ ok: false, error: err.message }));
    return outcome.ok ? outcome : { ...outcome, error: scrubSecretText(outcome.error, credentials) };
  }

  private async sendWith(kind: AdapterKind, d: AdapterDelivery, ctx: ReplyContext): Promise<SendOutcome> {
    const adapter = this.adapters.get(kind);
    if (d.messageId === null) {
      const type = (d.payload as { type?: string } | null)?.type;
      if (type === 'session.handed_off' || type === 'session.handed_back') return adapter.sessionEvent(ctx, type satisfies SessionEventType);
      return { ok: true }; // other events have nothing to say to the platform
    }
    if (d.text === null) throw new Error(`delivery ${d.id} has no reply text`);
    const parts = splitText(d.text, adapter.maxChars);
    const { partsSent } = await this.prisma.delivery.findUniqueOrThrow({ where: { id: d.id }, select: { partsSent: true } });
    if (partsSent === 0 && adapter.instead) {
      const instead = await adapter.instead(ctx);
      if (instead) return instead;
    }
    for (let i = partsSent; i < parts.length; i++) {
      const outcome = await adapter.sendPart(ctx, adapter.format(parts[i]));
      if (!outcome.ok) return outcome;
      await this.prisma.delivery.update({ where: { id: d.id }, data: { partsSent: i + 1 } });
    }
    return { ok: true };
  }

  private async context(kind: AdapterKind, d: AdapterDelivery): Promise<ReplyContext> {
    const event = d.payload as { sessionId?: string; session?: string } | null;
    const sessionId = d.sessionId ?? event?.sessionId;
    const sessionKey = d.sessionKey ?? event?.session;
    if (!sessionId || !sessionKey) throw new Error(`delivery ${d.id} names no session`);
    const [channel, lastInbound] = await Promise.all([
      this.prisma.channel.findUniqueOrThrow({ where: { id: d.channelId }, select: { settings: true, secretsEncrypted: true } }),
      this.prisma.message.findFirst({ where: { sessionId, direction: 'inbound' }, orderBy: { seq: 'desc' }, select: { createdAt: true } }),
    ]);
    if (!channel.secretsEncrypted) throw new Error(`channel ${d.channelId} has no credentials`);
    return {
      tenantId: d.tenantId,
      channelId: d.channelId,
      sessionId,
      sessionKey,
      settings: readAdapterSettings(kind, channel.settings),
      secrets: JSON.parse(this.secrets.decrypt(channel.secretsEncrypted, SECRET_CONTEXTS.channelSecrets(d.tenantId))) as unknown,
      allowedHosts: this.allowedHosts,
      lastInboundAt: lastInbound?.createdAt ?? null,
    };
  }
}

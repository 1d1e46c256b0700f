import { Inject, Injectable } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { PrismaService } from '@switchboard/db';
import { adapterDeliveryUrl, isAdapterKind, type AdapterKind } from '@switchboard/webhooks';
import type { FastifyRequest } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import { SECRET_CONTEXTS, SecretBox } from '../admin/common/secret-box';
import { ENV } from '../config/env.module';
import { inboundUrl, mergeAdapterSecrets, newAdapterSecrets, parseAdapterSettings } from './adapter-channel-config';
import { ChannelSetupFailedError } from './channel-adapter.errors';
import { ChannelSetupQueue } from './channel-setup.queue';

/** Kinds whose webhook Switchboard registers at the platform itself; the others are pasted by the tenant. */
const REGISTERS_WEBHOOK: ReadonlySet<AdapterKind> = new Set(['telegram']);

/** The columns a new or edited platform channel gets. */
export interface PlatformChannelColumns {
  settings: Record<string, unknown>;
  secretsEncrypted?: string;
  /** The adapter's delivery address: replies and hand-offs go through the delivery system to it. */
  webhookUrl: string;
}

/** In the create answer only: what the tenant pastes into the platform (when it is not set automatically). */
export interface PlatformSetupInfo {
  /** The URL the platform calls (Chatwoot's carries its secret: keep it private). */
  inboundUrl: string;
  /** True when Switchboard registered the webhook at the platform itself (Telegram's setWebhook). */
  webhookRegistered: boolean;
  /** WhatsApp: the verify token to paste beside the callback URL. */
  verifyToken?: string;
}

/** A new platform channel's columns, and its made secrets for the create answer. */
export interface NewPlatformChannel extends Required<PlatformChannelColumns> {
  secretsMade: Record<string, string>;
}

/**
 * The console's side of platform channels: checks and seals their settings and credentials on
 * create and edit, registers the webhook at the platform after create (rolling the channel back
 * when the platform refuses), and removes it before delete.
 */
@Injectable()
export class PlatformChannelSetup {
  constructor(
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
    private readonly setupQueue: ChannelSetupQueue,
    private readonly logger: PinoLogger,
    @Inject(ENV) private readonly env: Env,
  ) {}

  isPlatform(kind: string): kind is AdapterKind {
    return isAdapterKind(kind);
  }

  forCreate(kind: AdapterKind, tenantId: string, settings: unknown, secrets: unknown): NewPlatformChannel {
    const sealed = newAdapterSecrets(kind, secrets);
    return {
      settings: parseAdapterSettings(kind, settings),
      secretsEncrypted: this.seal(tenantId, sealed.all),
      webhookUrl: adapterDeliveryUrl(kind),
      secretsMade: sealed.made,
    };
  }

  forUpdate(kind: AdapterKind, tenantId: string, storedSecrets: string | null, settings: unknown, secrets: unknown): Partial<PlatformChannelColumns> {
    return {
      ...(settings !== undefined && { settings: parseAdapterSettings(kind, settings) }),
      ...(secrets !== undefined && storedSecrets !== null && { secretsEncrypted: this.seal(tenantId, mergeAdapterSecrets(kind, this.open(tenantId, storedSecrets), secrets)) }),
      webhookUrl: adapterDeliveryUrl(kind),
    };
  }

  /**
   * After the channel is saved: registers its webhook at the platform. A refusal deletes the new
   * channel (`rollback`) and answers 502 with the platform's words; after an edit it says the
   * edit is saved but the platform refused.
   */
  async connect(
    kind: AdapterKind,
    tenantId: string,
    channelId: string,
    req: FastifyRequest,
    made: Record<string, string> = {},
    rollback?: () => Promise<unknown>,
  ): Promise<PlatformSetupInfo> {
    const url = inboundUrl(this.env.PUBLIC_API_URL ?? `${req.protocol}://${req.host}`, kind, channelId, made.urlSecret);
    const pasted = { inboundUrl: url, webhookRegistered: false, ...(made.verifyToken && { verifyToken: made.verifyToken }) };
    // Nothing to register: no worker round trip, so such a channel can be created while workers are down.
    if (!REGISTERS_WEBHOOK.has(kind)) return pasted;
    try {
      const result = await this.setupQueue.run({ tenantId, channelId, action: 'connect', webhookUrl: url });
      if (!result.ok) throw new ChannelSetupFailedError(result.error.code, result.error.message);
      return { inboundUrl: url, webhookRegistered: result.done, ...(made.verifyToken && { verifyToken: made.verifyToken }) };
    } catch (err) {
      if (rollback) await rollback();
      throw err;
    }
  }

  /** Before delete: removes the webhook at the platform. A refusal is logged, and the delete goes on. */
  async disconnect(kind: AdapterKind, tenantId: string, channelId: string): Promise<{ ok: boolean; error?: string }> {
    if (!REGISTERS_WEBHOOK.has(kind)) return { ok: true };
    try {
      const result = await this.setupQueue.run({ tenantId, channelId, action: 'disconnect' });
      if (result.ok) return { ok: true };
      this.logger.warn({ msg: 'the platform refused to remove the webhook; deleting the channel anyway', channelId, code: result.error.code });
      return { ok: false, error: result.error.message };
    } catch (err) {
      this.logger.warn({ msg: 'could not remove the webhook at the platform; deleting the channel anyway', channelId, err: (err as Error).message });
      return { ok: false, error: (err as Error).message };
    }
  }

  private seal(tenantId: string, secrets: Record<string, string>): string {
    return this.secrets.encrypt(JSON.stringify(secrets), SECRET_CONTEXTS.channelSecrets(tenantId));
  }

  private open(tenantId: string, stored: string): Record<string, string> {
    return JSON.parse(this.secrets.decrypt(stored, SECRET_CONTEXTS.channelSecrets(tenantId))) as Record<string, string>;
  }
}

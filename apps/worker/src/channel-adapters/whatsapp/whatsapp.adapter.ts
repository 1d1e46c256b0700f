import { Injectable } from '@nestjs/common';
import type { WhatsAppSettings } from '@switchboard/webhooks';
import type { ChannelAdapter, ReplyContext } from '../channel-adapter';
import { ChannelAdapterFor } from '../channel-adapter-for.decorator';
import { toWhatsAppText } from '../format-text';
import { callPlatform, excerpt, type PlatformAnswer, type SendOutcome } from '../platform-call';

interface WhatsAppSecrets {
  appSecret: string;
  accessToken: string;
  verifyToken: string;
}

type Ctx = ReplyContext<WhatsAppSettings, WhatsAppSecrets>;

/** WhatsApp's limit for a text message body. */
export const WHATSAPP_MAX_CHARS = 4096;
/** A business may send free-form messages for 24 hours after the customer's last message. */
export const WHATSAPP_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The code a reply outside the window without a template is dead-lettered with. */
export const WINDOW_CLOSED_CODE = 'whatsapp-window-closed';

/** Graph API error codes that mean "too many, slow down" (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes). */
const THROTTLING_CODES = new Set([4, 80007, 130429, 131048, 131056]);
/** Re-engagement message: more than 24 hours since the customer last wrote. */
const OUTSIDE_WINDOW_CODE = 131047;

/**
 * WhatsApp through the Cloud API (Graph API `/<version>/<phone number id>/messages`): text
 * replies in WhatsApp's formatting. Outside the 24-hour customer-service window a reply cannot be
 * sent free-form: the channel's template goes instead, or, without one, the delivery is
 * dead-lettered as `whatsapp-window-closed` (redrive it after the customer writes again).
 */
@Injectable()
@ChannelAdapterFor('whatsapp')
export class WhatsAppAdapter implements ChannelAdapter<WhatsAppSettings, WhatsAppSecrets> {
  readonly kind = 'whatsapp' as const;
  readonly maxChars = WHATSAPP_MAX_CHARS;

  format(markdown: string): string {
    return toWhatsAppText(markdown);
  }

  async instead(ctx: Ctx, now = new Date()): Promise<SendOutcome | null> {
    if (ctx.lastInboundAt && now.getTime() - ctx.lastInboundAt.getTime() < WHATSAPP_WINDOW_MS) return null;
    const template = ctx.settings.template;
    if (!template) {
      return { ok: false, dead: true, code: WINDOW_CLOSED_CODE, error: 'More than 24 hours since the customer last wrote, and the channel has no template to send instead.' };
    }
    return outcomeOf(await this.send(ctx, { type: 'template', template: { name: template.name, language: { code: template.language } } }));
  }

  async sendPart(ctx: Ctx, text: string): Promise<SendOutcome> {
    return outcomeOf(await this.send(ctx, { type: 'text', text: { preview_url: false, body: text } }));
  }

  async sessionEvent(): Promise<SendOutcome> {
    // A hand-off shows in the console's inbox; WhatsApp has no inbox of its own to open.
    return { ok: true };
  }

  private send(ctx: Ctx, message: Record<string, unknown>): Promise<PlatformAnswer> {
    const { apiRoot, apiVersion, phoneNumberId } = ctx.settings;
    return callPlatform({
      method: 'POST',
      url: `${apiRoot}/${apiVersion}/${phoneNumberId}/messages`,
      headers: { authorization: `Bearer ${ctx.secrets.accessToken}` },
      json: { messaging_product: 'whatsapp', recipient_type: 'individual', to: ctx.sessionKey, ...message },
      allowedHosts: ctx.allowedHosts,
    });
  }
}

function outcomeOf(res: PlatformAnswer): SendOutcome {
  if (res.status >= 200 && res.status < 300) return { ok: true };
  const error = (res.body as { error?: { code?: number; message?: string } } | null)?.error;
  const text = `WhatsApp ${res.status}: ${error?.message ?? excerpt(res.body)}${error?.code !== undefined ? ` (code ${error.code})` : ''}`;
  if (res.status === 429 || (error?.code !== undefined && THROTTLING_CODES.has(error.code))) {
    return { ok: false, status: res.status, error: text, retryAfterMs: res.retryAfterHeaderMs ?? undefined };
  }
  if (error?.code === OUTSIDE_WINDOW_CODE) return { ok: false, dead: true, code: WINDOW_CLOSED_CODE, error: text };
  if (res.status === 400) return { ok: false, dead: true, code: 'whatsapp-rejected', error: text };
  return { ok: false, status: res.status, error: text };
}

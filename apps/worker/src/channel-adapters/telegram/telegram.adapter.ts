import { Injectable } from '@nestjs/common';
import type { ApiResponse } from '@grammyjs/types';
import type { TelegramSettings } from '@switchboard/webhooks';
import { PlatformSetupError, type ChannelAdapter, type ReplyContext } from '../channel-adapter';
import { toTelegramHtml } from '../format-text';
import { callPlatform, excerpt, type PlatformAnswer, type SendOutcome } from '../platform-call';
import { ChannelAdapterFor } from '../channel-adapter-for.decorator';

interface TelegramSecrets {
  botToken: string;
  webhookSecretToken: string;
}

type Ctx = ReplyContext<TelegramSettings, TelegramSecrets>;

/** Telegram's limit for a message's text, after entity parsing (Bot API sendMessage). */
export const TELEGRAM_MAX_CHARS = 4096;

/**
 * Telegram through the Bot API (types from grammY's @grammyjs/types): replies with sendMessage in
 * HTML parse mode; the webhook is set with a secret token when the channel is created and
 * deleted with it. A 429 carries `parameters.retry_after` (seconds), which the next attempt waits.
 */
@Injectable()
@ChannelAdapterFor('telegram')
export class TelegramAdapter implements ChannelAdapter<TelegramSettings, TelegramSecrets> {
  readonly kind = 'telegram' as const;
  // HTML tags do not count toward the limit, but escaped entities (&amp;) do, and may grow a
  // part: leave room for them.
  readonly maxChars = TELEGRAM_MAX_CHARS - 96;

  format(markdown: string): string {
    return toTelegramHtml(markdown);
  }

  async sendPart(ctx: Ctx, text: string): Promise<SendOutcome> {
    const res = await this.call(ctx.settings, ctx.secrets, 'sendMessage', { chat_id: ctx.sessionKey, text, parse_mode: 'HTML' }, ctx.allowedHosts);
    return outcomeOf(res);
  }

  async sessionEvent(): Promise<SendOutcome> {
    // A hand-off shows in the console's inbox; Telegram has no inbox of its own to open.
    return { ok: true };
  }

  async connect(settings: TelegramSettings, secrets: TelegramSecrets, webhookUrl: string, allowedHosts: ReadonlySet<string>): Promise<void> {
    const res = await this.call(settings, secrets, 'setWebhook', { url: webhookUrl, secret_token: secrets.webhookSecretToken, allowed_updates: ['message'] }, allowedHosts);
    assertOk(res, 'setWebhook');
  }

  async disconnect(settings: TelegramSettings, secrets: TelegramSecrets, allowedHosts: ReadonlySet<string>): Promise<void> {
    assertOk(await this.call(settings, secrets, 'deleteWebhook', {}, allowedHosts), 'deleteWebhook');
  }

  private call(settings: TelegramSettings, secrets: TelegramSecrets, method: string, payload: unknown, allowedHosts: ReadonlySet<string>): Promise<PlatformAnswer> {
    return callPlatform({ method: 'POST', url: `${settings.apiRoot}/bot${secrets.botToken}/${method}`, json: payload, allowedHosts });
  }
}

function outcomeOf(res: PlatformAnswer): SendOutcome {
  const body = res.body as ApiResponse<unknown> | null;
  if (res.status === 200 && body && typeof body === 'object' && body.ok) return { ok: true };
  const description = body && typeof body === 'object' && !body.ok ? body.description : excerpt(res.body);
  if (res.status === 429) {
    const seconds = body && typeof body === 'object' && !body.ok ? body.parameters?.retry_after : undefined;
    return { ok: false, status: 429, error: `Telegram 429: ${description}`, retryAfterMs: seconds !== undefined ? seconds * 1000 : (res.retryAfterHeaderMs ?? undefined) };
  }
  // 400 (bad chat, bad entities) and 403 (blocked by the user): the same request will fail again.
  if (res.status === 400 || res.status === 403 || res.status === 404) {
    return { ok: false, dead: true, code: 'telegram-rejected', error: `Telegram ${res.status}: ${description}` };
  }
  return { ok: false, status: res.status, error: `Telegram ${res.status}: ${description}` };
}

function assertOk(res: PlatformAnswer, method: string): void {
  const body = res.body as ApiResponse<unknown> | null;
  if (res.status === 200 && body && typeof body === 'object' && body.ok) return;
  const description = body && typeof body === 'object' && !body.ok ? body.description : excerpt(res.body);
  throw new PlatformSetupError('telegram-setup-failed', `Telegram ${method} answered ${res.status}: ${description}`);
}

import { Injectable } from '@nestjs/common';
import type { ChatwootSettings } from '@switchboard/webhooks';
import type { ChannelAdapter, ReplyContext, SessionEventType } from '../channel-adapter';
import { ChannelAdapterFor } from '../channel-adapter-for.decorator';
import { toChatwootText } from '../format-text';
import { callPlatform, excerpt, type PlatformAnswer, type SendOutcome } from '../platform-call';

interface ChatwootSecrets {
  agentBotToken: string;
  urlSecret: string;
}

type Ctx = ReplyContext<ChatwootSettings, ChatwootSecrets>;

/**
 * The inbox behind Chatwoot may be WhatsApp or Telegram, whose limit is 4096: parts stay under
 * it so Chatwoot can pass them on whole.
 */
export const CHATWOOT_MAX_CHARS = 4096;

/**
 * Chatwoot as an agent bot (its application API with the bot's access token): replies are
 * outgoing messages in the conversation; a hand-off opens the conversation for Chatwoot's agents
 * (toggle_status `open`), and the console's hand-back returns it to the bot (`pending`).
 */
@Injectable()
@ChannelAdapterFor('chatwoot')
export class ChatwootAdapter implements ChannelAdapter<ChatwootSettings, ChatwootSecrets> {
  readonly kind = 'chatwoot' as const;
  readonly maxChars = CHATWOOT_MAX_CHARS;

  format(markdown: string): string {
    return toChatwootText(markdown);
  }

  async sendPart(ctx: Ctx, text: string): Promise<SendOutcome> {
    return outcomeOf(await this.call(ctx, 'messages', { content: text, message_type: 'outgoing', private: false }));
  }

  async sessionEvent(ctx: Ctx, type: SessionEventType): Promise<SendOutcome> {
    return outcomeOf(await this.call(ctx, 'toggle_status', { status: type === 'session.handed_off' ? 'open' : 'pending' }));
  }

  private call(ctx: Ctx, path: string, json: unknown): Promise<PlatformAnswer> {
    const { baseUrl, accountId } = ctx.settings;
    return callPlatform({
      method: 'POST',
      url: `${baseUrl}/api/v1/accounts/${accountId}/conversations/${encodeURIComponent(ctx.sessionKey)}/${path}`,
      headers: { api_access_token: ctx.secrets.agentBotToken },
      json,
      allowedHosts: ctx.allowedHosts,
    });
  }
}

function outcomeOf(res: PlatformAnswer): SendOutcome {
  if (res.status >= 200 && res.status < 300) return { ok: true };
  const text = `Chatwoot ${res.status}: ${excerpt(res.body)}`;
  if (res.status === 429) return { ok: false, status: 429, error: text, retryAfterMs: res.retryAfterHeaderMs ?? undefined };
  if (res.status === 404 || res.status === 422) return { ok: false, dead: true, code: 'chatwoot-rejected', error: text };
  return { ok: false, status: res.status, error: text };
}

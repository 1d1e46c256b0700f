import http from 'node:http';
import https from 'node:https';
import { Injectable } from '@nestjs/common';
import { ErrorCode, LogLevel, WebClient, type WebAPICallError } from '@slack/web-api';
import type { SlackSettings } from '@switchboard/webhooks';
import { assertAllowedLiteral, guardedLookup } from '@switchboard/outbound';
import type { ChannelAdapter, ReplyContext } from '../channel-adapter';
import { ChannelAdapterFor } from '../channel-adapter-for.decorator';
import { toSlackMrkdwn } from '../format-text';
import type { SendOutcome } from '../platform-call';

interface SlackSecrets {
  botToken: string;
  signingSecret: string;
}

type Ctx = ReplyContext<SlackSettings, SlackSecrets>;

/** Slack truncates a message's text past 40,000 characters and advises staying under 4,000. */
export const SLACK_MAX_CHARS = 4000;
const TIMEOUT_MS = 15_000;

/**
 * Slack through @slack/web-api (chat.postMessage, mrkdwn). The client's own retries are off —
 * the delivery system retries, so a 429 becomes the delivery's next attempt after Retry-After —
 * and its connections go through the outbound guard: an agent whose lookup refuses private
 * addresses (and literals checked before), no redirects (the client sets maxRedirects 0).
 */
@Injectable()
@ChannelAdapterFor('slack')
export class SlackAdapter implements ChannelAdapter<SlackSettings, SlackSecrets> {
  readonly kind = 'slack' as const;
  readonly maxChars = SLACK_MAX_CHARS;

  format(markdown: string): string {
    return toSlackMrkdwn(markdown);
  }

  async sendPart(ctx: Ctx, text: string): Promise<SendOutcome> {
    try {
      await this.client(ctx).chat.postMessage({ channel: ctx.sessionKey, text, mrkdwn: true });
      return { ok: true };
    } catch (err) {
      return outcomeOf(err as WebAPICallError | Error);
    }
  }

  async sessionEvent(): Promise<SendOutcome> {
    // A hand-off shows in the console's inbox; Slack has no inbox of its own to open.
    return { ok: true };
  }

  private client(ctx: Ctx): WebClient {
    const url = new URL(ctx.settings.apiRoot);
    assertAllowedLiteral(url.hostname, ctx.allowedHosts);
    const lookup = guardedLookup(ctx.allowedHosts);
    const agent = url.protocol === 'https:' ? new https.Agent({ lookup }) : new http.Agent({ lookup });
    return new WebClient(ctx.secrets.botToken, {
      slackApiUrl: `${ctx.settings.apiRoot}/api/`,
      agent,
      timeout: TIMEOUT_MS,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      allowAbsoluteUrls: false,
      logLevel: LogLevel.ERROR,
    });
  }
}

function outcomeOf(err: WebAPICallError | Error): SendOutcome {
  const e = err as WebAPICallError;
  switch (e.code) {
    case ErrorCode.RateLimitedError:
      return { ok: false, status: 429, error: `Slack 429: rate limited for ${e.retryAfter} s`, retryAfterMs: e.retryAfter * 1000 };
    case ErrorCode.PlatformError:
      // channel_not_found, not_in_channel, invalid_auth...: the same call fails again.
      return { ok: false, dead: true, code: 'slack-rejected', error: `Slack refused chat.postMessage: ${e.data.error}` };
    case ErrorCode.HTTPError:
      return { ok: false, status: e.statusCode, error: `Slack ${e.statusCode}: ${e.statusMessage}` };
    default:
      return { ok: false, error: `Slack: ${err.message}` };
  }
}

import { Injectable } from '@nestjs/common';
import { PrismaService, type SessionStatus } from '@switchboard/db';
import { findVisitorSession } from './visitor-session';
import { visitorSessionKey, VisitorTokens } from './visitor-token.service';
import { WidgetChannels } from './widget-channels';
import { OriginNotAllowedError, WidgetNotFoundError } from './widget.errors';
import { WidgetRateLimits } from './widget-rate-limits';
import type { StartVisitorSessionBody } from './widget.schemas';
import { originAllowed, type WidgetSettings } from './widget-settings';
import { TenantStatuses } from '../tenant-status/tenant-statuses';

/** What the widget shows: the channel's looks, never its allowed origins. */
export type PublicWidgetSettings = Pick<WidgetSettings, 'title' | 'greeting' | 'color' | 'position' | 'avatarUrl' | 'language'>;

export interface VisitorSessionGrant {
  token: string;
  expiresAt: string;
  /** True when the token continues the conversation of the token the widget sent. */
  continued: boolean;
  /** The conversation, once it has begun. */
  session: { status: SessionStatus } | null;
  widget: PublicWidgetSettings;
}

/**
 * POST /v1/widget/:publicId/sessions, when a visitor first opens the chat on a page: the page's
 * Origin must be allowed by the channel, and the address and the widget within their limits. A
 * token kept from an earlier visit (valid, same widget) is renewed for the same visitor, so the
 * conversation continues; anything else starts a new visitor. Nothing is written: the session
 * row comes with the visitor's first message.
 */
@Injectable()
export class StartVisitorSession {
  constructor(
    private readonly prisma: PrismaService,
    private readonly channels: WidgetChannels,
    private readonly tokens: VisitorTokens,
    private readonly limits: WidgetRateLimits,
    private readonly statuses: TenantStatuses,
  ) {}

  async execute(publicId: string, origin: string | undefined, address: string, body: StartVisitorSessionBody): Promise<VisitorSessionGrant> {
    const channel = await this.channels.find(publicId);
    if (!channel) throw new WidgetNotFoundError();
    if (!originAllowed(channel.settings, origin)) throw new OriginNotAllowedError(origin);
    await this.statuses.assertActive(channel.tenantId);
    await this.limits.session(address, channel.channelId);

    const earlier = body.token ? await this.tokens.verify(body.token) : null;
    const continued = earlier !== null && earlier.channelId === channel.channelId && earlier.tenantId === channel.tenantId;
    const visitor = continued ? earlier.visitor : this.tokens.newVisitor();
    const claims = { visitor, channelId: channel.channelId, tenantId: channel.tenantId };
    const { token, expiresAt } = await this.tokens.sign(claims, channel.settings.conversationDays);
    const session = continued ? await findVisitorSession(this.prisma, { ...claims, sessionKey: visitorSessionKey(visitor) }) : null;
    const { title, greeting, color, position, avatarUrl, language } = channel.settings;
    return {
      token,
      expiresAt: expiresAt.toISOString(),
      continued,
      session: session ? { status: session.status } : null,
      widget: { title, greeting, color, position, avatarUrl, language },
    };
  }
}

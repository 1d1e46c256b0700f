import { createParamDecorator, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import { visitorSessionKey, VisitorTokens, type VisitorClaims } from './visitor-token.service';
import { WidgetChannels, type WidgetChannel } from './widget-channels';
import { InvalidVisitorTokenError, MissingVisitorTokenError, OriginNotAllowedError } from './widget.errors';
import { originAllowed } from './widget-settings';
import { TenantStatuses } from '../tenant-status/tenant-statuses';
import { assignLogFields } from '../logging/assign-log-fields';

/** Who is calling a widget route: one visitor of one widget channel. */
export interface VisitorContext extends VisitorClaims {
  channel: WidgetChannel;
  /** Session.externalKey of the visitor's conversation. */
  sessionKey: string;
}

type VisitorRequest = FastifyRequest & { visitor?: VisitorContext; params: { publicId?: string } };

/**
 * Authenticates a visitor by `Authorization: Bearer <visitor token>`: the token must be valid,
 * issued for the channel the URL's public id names, and the page's Origin must be one the
 * channel allows. Everything the routes behind it read or write is the token's own session, so a
 * visitor token cannot reach another visitor, another channel, or anything of the admin API
 * (whose guard knows nothing of visitor tokens). A suspended tenant's visitors get 403
 * `tenant-suspended`. The token is checked first, so a request
 * without one answers 401 whatever else it sends.
 */
@Injectable()
export class VisitorGuard implements CanActivate {
  constructor(
    private readonly tokens: VisitorTokens,
    private readonly channels: WidgetChannels,
    private readonly logger: PinoLogger,
    private readonly statuses: TenantStatuses,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<VisitorRequest>();
    const token = req.headers.authorization?.match(/^Bearer[ ]+(\S+)\s*$/i)?.[1];
    if (!token) throw new MissingVisitorTokenError();
    const claims = await this.tokens.verify(token);
    if (!claims) throw new InvalidVisitorTokenError();
    const channel = await this.channels.find(String(req.params.publicId ?? ''));
    // A token of another widget (or of a deleted one) is as invalid as a forged one.
    if (!channel || channel.channelId !== claims.channelId || channel.tenantId !== claims.tenantId) throw new InvalidVisitorTokenError();
    const origin = req.headers.origin;
    if (!originAllowed(channel.settings, origin)) throw new OriginNotAllowedError(origin);
    await this.statuses.assertActive(channel.tenantId);
    req.visitor = { ...claims, channel, sessionKey: visitorSessionKey(claims.visitor) };
    assignLogFields(this.logger, { tenantId: claims.tenantId, channelId: claims.channelId });
    return true;
  }
}

/** Handler parameter with the calling visitor; only valid behind VisitorGuard. */
export const Visitor = createParamDecorator((_: unknown, ctx: ExecutionContext): VisitorContext => {
  const visitor = ctx.switchToHttp().getRequest<VisitorRequest>().visitor;
  if (!visitor) throw new Error('Visitor used on a route without VisitorGuard');
  return visitor;
});

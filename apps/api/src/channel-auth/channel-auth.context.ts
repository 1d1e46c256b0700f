import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** The channel a request acts for: enough to read and write its sessions (API key or widget visitor). */
export interface ChannelScope {
  tenantId: string;
  channelId: string;
  agentId: string;
}

/** Who is calling, resolved from the channel API key by ApiKeyGuard. */
export interface ChannelAuthContext extends ChannelScope {
  apiKeyId: string;
}

export type ChannelAuthRequest = FastifyRequest & { channelAuth?: ChannelAuthContext };

/** Handler parameter with the caller's channel; only valid behind ApiKeyGuard. */
export const ChannelAuth = createParamDecorator((_: unknown, ctx: ExecutionContext): ChannelAuthContext => {
  const auth = ctx.switchToHttp().getRequest<ChannelAuthRequest>().channelAuth;
  if (!auth) throw new Error('ChannelAuth used on a route without ApiKeyGuard');
  return auth;
});

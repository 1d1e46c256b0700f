import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** Who is calling, resolved from the channel API key by ApiKeyGuard. */
export interface ChannelAuthContext {
  apiKeyId: string;
  tenantId: string;
  channelId: string;
  agentId: string;
}

export type ChannelAuthRequest = FastifyRequest & { channelAuth?: ChannelAuthContext };

/** Handler parameter with the caller's channel; only valid behind ApiKeyGuard. */
export const ChannelAuth = createParamDecorator((_: unknown, ctx: ExecutionContext): ChannelAuthContext => {
  const auth = ctx.switchToHttp().getRequest<ChannelAuthRequest>().channelAuth;
  if (!auth) throw new Error('ChannelAuth used on a route without ApiKeyGuard');
  return auth;
});

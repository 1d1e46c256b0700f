import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { hashApiKey, PrismaService } from '@switchboard/db';
import { PinoLogger } from 'nestjs-pino';
import type { ChannelAuthRequest } from './channel-auth.context';
import { InvalidApiKeyError, MissingApiKeyError, RevokedApiKeyError } from './api-key.errors';

/** lastUsedAt is a hint for people, not an audit trail: refresh it at most this often. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Authenticates a channel by `Authorization: Bearer <key>`: the key is looked up by its
 * SHA-256 hash and must not be revoked. Runs before validation, so a request with a bad key
 * learns nothing about the endpoint's schema.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly prisma: PrismaService,
    private readonly logger: PinoLogger,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<ChannelAuthRequest>();
    const key = bearerToken(req.headers.authorization);
    if (!key) throw new MissingApiKeyError();

    const apiKey = await this.prisma.apiKey.findUnique({
      where: { keyHash: hashApiKey(key) },
      select: { id: true, tenantId: true, channelId: true, revokedAt: true, lastUsedAt: true, channel: { select: { agentId: true } } },
    });
    if (!apiKey) throw new InvalidApiKeyError();
    if (apiKey.revokedAt) throw new RevokedApiKeyError();

    req.channelAuth = {
      apiKeyId: apiKey.id,
      tenantId: apiKey.tenantId,
      channelId: apiKey.channelId,
      agentId: apiKey.channel.agentId,
    };
    this.logger.assign({ tenantId: apiKey.tenantId, channelId: apiKey.channelId });
    this.touch(apiKey.id, apiKey.lastUsedAt);
    return true;
  }

  private touch(id: string, lastUsedAt: Date | null): void {
    const now = new Date();
    if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    this.prisma.apiKey
      .update({ where: { id }, data: { lastUsedAt: now } })
      .catch((err: Error) => this.logger.warn({ err: err.message }, 'could not update ApiKey.lastUsedAt'));
  }
}

function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer[ ]+(\S+)\s*$/i);
  return match?.[1];
}

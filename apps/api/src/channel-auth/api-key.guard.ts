import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { hashApiKey, PrismaService } from '@switchboard/db';
import { PinoLogger } from 'nestjs-pino';
import { TenantStatuses } from '../tenant-status/tenant-statuses';
import { ApiKeyCache, type CachedApiKey } from './api-key-cache';
import type { ChannelAuthRequest } from './channel-auth.context';
import { InvalidApiKeyError, MissingApiKeyError, RevokedApiKeyError } from './api-key.errors';
import { assignLogFields } from '../logging/assign-log-fields';

/** lastUsedAt is a hint for people, not an audit trail: refresh it at most this often. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Authenticates a channel by `Authorization: Bearer <key>`: the key is looked up by its
 * SHA-256 hash and must not be revoked; a verified key is remembered for a few seconds
 * (ApiKeyCache). A key of a suspended tenant answers 403 `tenant-suspended` before anything is
 * counted or stored. Runs before validation, so a request with a bad key learns nothing about the
 * endpoint's schema.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly prisma: PrismaService,
    private readonly logger: PinoLogger,
    private readonly cache: ApiKeyCache,
    private readonly statuses: TenantStatuses,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<ChannelAuthRequest>();
    const key = bearerToken(req.headers.authorization);
    if (!key) throw new MissingApiKeyError();

    const keyHash = hashApiKey(key);
    const verified = this.cache.get(keyHash) ?? (await this.lookUp(keyHash));
    await this.statuses.assertActive(verified.auth.tenantId);
    req.channelAuth = verified.auth;
    assignLogFields(this.logger, { tenantId: verified.auth.tenantId, channelId: verified.auth.channelId });
    this.touch(verified);
    return true;
  }

  private async lookUp(keyHash: string): Promise<CachedApiKey> {
    const apiKey = await this.prisma.apiKey.findUnique({
      where: { keyHash },
      select: { id: true, tenantId: true, channelId: true, revokedAt: true, lastUsedAt: true, channel: { select: { agentId: true } } },
    });
    if (!apiKey) throw new InvalidApiKeyError();
    if (apiKey.revokedAt) throw new RevokedApiKeyError();
    return this.cache.set(keyHash, {
      auth: { apiKeyId: apiKey.id, tenantId: apiKey.tenantId, channelId: apiKey.channelId, agentId: apiKey.channel.agentId },
      lastUsedAt: apiKey.lastUsedAt,
    });
  }

  private touch(verified: CachedApiKey): void {
    const now = new Date();
    if (verified.lastUsedAt && now.getTime() - verified.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    verified.lastUsedAt = now; // Also in the cache: the next requests need not write it again.
    this.prisma.apiKey
      .update({ where: { id: verified.auth.apiKeyId }, data: { lastUsedAt: now } })
      .catch((err: Error) => this.logger.warn({ err: err.message }, 'could not update ApiKey.lastUsedAt'));
  }
}

function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer[ ]+(\S+)\s*$/i);
  return match?.[1];
}

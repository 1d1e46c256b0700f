import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { PrismaService, TenantQuotas } from '@switchboard/db';
import type { ChannelAuthRequest } from '../channel-auth/channel-auth.context';
import { postMessageBody } from '../messages/messages.schemas';
import { QuotaExceededError } from './quota-exceeded.error';
import { agentFallbackMessage } from './refused-fallback';
import { storeRefusedMessage } from './store-refused-message';

export { QUOTA_CACHE_MS } from '@switchboard/db';

/**
 * The tenant's monthly quotas and the channel's agent's budget on ingest (TenantQuotas). Over quota, a valid message is stored
 * (failed, kind quota-exceeded) and answered 429 `quota-exceeded` with its ids and the agent's
 * fallback message (for the integrator to show the customer); an invalid one
 * goes on to ingest's own 400. Runs after ApiKeyGuard.
 */
@Injectable()
export class IngestQuotaGuard implements CanActivate {
  constructor(
    private readonly prisma: PrismaService,
    private readonly quotas: TenantQuotas,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ChannelAuthRequest>();
    const auth = request.channelAuth;
    if (!auth) return true;
    const state = await this.quotas.verdict(auth.tenantId, auth.agentId);
    if (!state.exceeded) return true;
    const body = postMessageBody.safeParse(request.body);
    if (!body.success) return true; // the handler's validation answers 400 with the details
    const stored = await storeRefusedMessage(this.prisma, auth, body.data);
    const fallbackMessage = await agentFallbackMessage(this.prisma, auth.tenantId, auth.agentId);
    throw new QuotaExceededError({ ...state, exceeded: state.exceeded }, { ...stored, fallbackMessage });
  }
}

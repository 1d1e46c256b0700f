import { Injectable } from '@nestjs/common';
import { isUuid, PrismaService, TenantQuotas, withTenant } from '@switchboard/db';
import type { ChannelAuthContext } from '../channel-auth/channel-auth.context';
import { AcceptFlowInput, type AcceptedFlowInput } from '../events/accept-flow-input';
import { agentInUse } from '../events/agent-in-use';
import { FlowInputSessionNotFoundError, UnknownFlowError } from '../events/flow-input.errors';
import { refuseOverQuota } from '../limits/refuse-over-quota';
import type { SessionStartBody } from './session-start.schemas';

export interface StartFlowResult {
  startId: string;
  sessionId: string;
  flow: string;
  status: AcceptedFlowInput['status'];
  duplicate: boolean;
}

/**
 * POST /v1/sessions/:id/start: starts a flow of the session's agent by hand (the engine's
 * `turn({ start: { flow, key } })`). The session must be one of the key's channel; the flow one
 * of the agent the session runs now. Stored, then enqueued (see AcceptFlowInput). A tenant over
 * its monthly quota is refused 429 `quota-exceeded`, as a message is.
 */
@Injectable()
export class StartFlow {
  constructor(
    private readonly prisma: PrismaService,
    private readonly inputs: AcceptFlowInput,
    private readonly quotas: TenantQuotas,
  ) {}

  async execute(auth: ChannelAuthContext, sessionId: string, body: SessionStartBody): Promise<StartFlowResult> {
    if (!isUuid(sessionId)) throw new FlowInputSessionNotFoundError();
    await refuseOverQuota(this.quotas, auth.tenantId, auth.agentId);
    const stored = await withTenant(this.prisma, auth.tenantId, async (tx) => {
      const session = await tx.session.findFirst({
        where: { id: sessionId, tenantId: auth.tenantId, channelId: auth.channelId },
        select: { id: true, agentId: true },
      });
      if (!session) throw new FlowInputSessionNotFoundError();
      const config = await agentInUse(tx, auth.tenantId, session.agentId);
      const flows = config.flows.flatMap((f) => (typeof (f as { id?: unknown }).id === 'string' ? [(f as { id: string }).id] : []));
      if (!flows.includes(body.flow)) throw new UnknownFlowError(body.flow, flows);
      return this.inputs.store(tx, auth.tenantId, session.id, { kind: 'start', flow: body.flow, key: body.key });
    });
    if (stored.status === 'queued') await this.inputs.enqueue(auth.tenantId, stored.sessionId, stored.key, stored.at);
    return { startId: stored.inputId, sessionId: stored.sessionId, flow: body.flow, status: stored.status, duplicate: stored.duplicate };
  }
}

import { Injectable } from '@nestjs/common';
import { coerceValues, type FieldsDef } from '@falai/agent';
import { PrismaService, TenantQuotas, withTenant, type TenantTx } from '@switchboard/db';
import type { ChannelAuthContext } from '../channel-auth/channel-auth.context';
import type { ErrorDetail } from '../common/errors';
import { refuseOverQuota } from '../limits/refuse-over-quota';
import { AcceptFlowInput, type AcceptedFlowInput } from './accept-flow-input';
import { agentInUse } from './agent-in-use';
import { InvalidEventDataError } from './flow-input.errors';
import type { PostEventBody } from './events.schemas';

export interface PostEventResult {
  eventId: string;
  sessionId: string;
  status: AcceptedFlowInput['status'];
  duplicate: boolean;
}

/**
 * POST /v1/events: the event is stored for the session (created on first use, as a message
 * would), then its job is enqueued. `data` must name the agent's fields with values that fit
 * them (coerced as the engine would); a bad value is a 422 and nothing is stored. A tenant over
 * its monthly quota is refused 429 `quota-exceeded`, as a message is.
 */
@Injectable()
export class PostEvent {
  constructor(
    private readonly prisma: PrismaService,
    private readonly inputs: AcceptFlowInput,
    private readonly quotas: TenantQuotas,
  ) {}

  /** `droppedKeys`: keys of the sent `data` that validation could not carry (`__proto__`); each is an unknown field. */
  async execute(auth: ChannelAuthContext, body: PostEventBody, droppedKeys: string[] = []): Promise<PostEventResult> {
    await refuseOverQuota(this.quotas, auth.tenantId, auth.agentId);
    const stored = await withTenant(this.prisma, auth.tenantId, async (tx) => {
      const data = body.data && (await this.checkedData(tx, auth, body.data, droppedKeys));
      const now = new Date();
      // ON CONFLICT makes "create on first use" safe when a message and an event of a new session race.
      const [session] = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO "Session" ("tenantId", "channelId", "agentId", "externalKey", "updatedAt")
        VALUES (${auth.tenantId}::uuid, ${auth.channelId}::uuid, ${auth.agentId}::uuid, ${body.session}, ${now})
        ON CONFLICT ("channelId", "externalKey") DO UPDATE SET "updatedAt" = EXCLUDED."updatedAt"
        RETURNING "id"`;
      return this.inputs.store(tx, auth.tenantId, session.id, {
        kind: 'event',
        event: body.event,
        key: body.key,
        ...(data && Object.keys(data).length > 0 && { data }),
      });
    });
    if (stored.status === 'queued') await this.inputs.enqueue(auth.tenantId, stored.sessionId, stored.key, stored.at);
    return { eventId: stored.inputId, sessionId: stored.sessionId, status: stored.status, duplicate: stored.duplicate };
  }

  private async checkedData(
    tx: TenantTx,
    auth: ChannelAuthContext,
    data: NonNullable<PostEventBody['data']>,
    droppedKeys: string[],
  ): Promise<Record<string, unknown>> {
    const config = await agentInUse(tx, auth.tenantId, auth.agentId);
    const coerced = coerceValues(config.fields as FieldsDef, data);
    const dropped = [...droppedKeys.map((slug) => ({ slug, code: 'unknown-field' as const })), ...coerced.dropped];
    if (dropped.length > 0) {
      const details: ErrorDetail[] = dropped.map((d) => ({
        location: 'body',
        path: `data.${d.slug}`,
        issue: d.code,
        message:
          d.code === 'unknown-field' ? `The agent has no field "${d.slug}".` : `The value does not fit the field "${d.slug}" (${d.code}).`,
      }));
      throw new InvalidEventDataError(details);
    }
    return coerced.values;
  }
}

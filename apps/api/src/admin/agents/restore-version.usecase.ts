import { Injectable } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import { z } from 'zod';
import { ResourceNotFoundError } from '../admin-errors';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { tenantScope } from '../tenant-scope';
import { agentSelect } from './agent.dto';
import { PublishAgent, type PublishResult } from './publish-agent.usecase';

const note = z.string().trim().max(2000).optional();
/** An override needs a reason someone can act on later, not "ok". */
const overrideReason = z.string().trim().min(10).max(2000).optional();

// An empty POST (no body) is a publish without a note.
export const publishBody = z.strictObject({ note, overrideReason }).default({});
export type PublishBody = z.infer<typeof publishBody>;

export const restoreBody = z.strictObject({ publish: z.boolean().default(false), note, overrideReason }).default({ publish: false });
export type RestoreBody = z.infer<typeof restoreBody>;

export interface RestoreResult {
  agentId: string;
  restoredFrom: number;
  /** The publish, when asked for. */
  published?: PublishResult;
}

/**
 * "Restore": makes an earlier version's config the agent's draft (audited), and with `publish`
 * publishes it through the same engine checks and conversation tests as any publish. The
 * version list shows what it restored.
 */
@Injectable()
export class RestoreVersion {
  constructor(
    private readonly prisma: PrismaService,
    private readonly publish: PublishAgent,
  ) {}

  async execute(user: AdminUser, agentId: string, versionParam: string, body: RestoreBody): Promise<RestoreResult> {
    const version = Number(versionParam);
    await adminTransaction(this.prisma, user, async (tx) => {
      const before = await tx.agent.findFirst({ where: { id: agentId, ...tenantScope(user) }, select: agentSelect });
      if (!before) throw new ResourceNotFoundError('agent', agentId);
      const row = Number.isSafeInteger(version) ? await tx.agentVersion.findFirst({ where: { agentId, version }, select: { config: true } }) : null;
      if (!row) throw new ResourceNotFoundError('agent version', versionParam);
      const after = await tx.agent.update({ where: { id: agentId }, data: { config: row.config as Prisma.InputJsonValue }, select: agentSelect });
      await recordAudit(tx, user, { action: 'agent.restore', entityType: 'agent', entityId: agentId, tenantId: after.tenantId, before, after: { ...after, restoredFrom: version } });
    });
    if (!body.publish) return { agentId, restoredFrom: version };
    const published = await this.publish.execute(user, agentId, { note: body.note, overrideReason: body.overrideReason, restoredFrom: version });
    return { agentId, restoredFrom: version, published };
  }
}

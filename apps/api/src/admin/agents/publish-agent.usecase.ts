import { Injectable } from '@nestjs/common';
import { FlowConfigurationError, type FlowWarning } from '@falai/agent';
import type { AgentConfig, ProviderEndpointError } from '@switchboard/agent-config';
import { PrismaService, type Prisma } from '@switchboard/db';
import { ConflictError, UnprocessableError } from '../../common/errors';
import { ResourceNotFoundError } from '../admin-errors';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { tenantScope } from '../tenant-scope';
import { assertCredentialOfTenant, knownActions, knownToolIds } from './agent-references';
import { versionSelect } from './agent.dto';
import { AgentLoadCheck } from './load-check/agent-load-check';
import { validateForPublish, type PublishCheck } from './validate-for-publish';
import { PublishGate } from '../conversation-tests/publish-gate';
import { FlowConfigurationRejectedError } from './flow-configuration-rejected.error';

import type { PublishAnswer } from './agent.answers';

export { FlowConfigurationRejectedError };

/** What the confirmation sends with a publish. */
export interface PublishOptions {
  /** The publisher's note, shown in the version list. */
  note?: string;
  /** An owner's written reason to publish past failing conversation tests (audited). */
  overrideReason?: string;
  /** Set by a restore: the version whose config this publish brings back. */
  restoredFrom?: number;
}

export class DraftChangedDuringTestsError extends ConflictError {
  constructor() {
    super('draft-changed', 'The draft was saved again while its tests ran. Publish again to test and publish the new draft.');
  }
}

/** 422 for a provider endpoint the worker would refuse to call (checkProviderEndpoint), at the path of the offending value. */
export class ProviderEndpointRejectedError extends UnprocessableError {
  constructor(err: ProviderEndpointError) {
    super(err.code, err.message, { path: err.path });
  }
}

/** A publish's answer (agent.answers.ts): the version, its warnings and the tests it ran. */
export type PublishResult = PublishAnswer;

/**
 * Validates an agent's draft as the worker's engine would build it and, if it holds together,
 * writes it as the immutable AgentVersion N+1 and makes it the published one. A draft the
 * engine refuses publishes nothing.
 */
@Injectable()
export class PublishAgent {
  constructor(
    private readonly prisma: PrismaService,
    private readonly loadCheck: AgentLoadCheck,
    private readonly gate: PublishGate,
  ) {}

  /** The same checks as a publish, writing nothing: for editors that show problems before publishing. */
  check(user: AdminUser, agentId: string): Promise<{ agentId: string; warnings: FlowWarning[] }> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const agent = await tx.agent.findFirst({ where: { id: agentId, ...tenantScope(user) } });
      if (!agent) throw new ResourceNotFoundError('agent', agentId);
      const check = await this.validate(tx, agent.tenantId, agent.config);
      return { agentId, warnings: check.warnings };
    });
  }

  /**
   * Checks the draft (the engine's refusal first, with its JSON path), runs the agent's
   * conversation tests against it (PublishGate: failing tests refuse the publish unless an owner
   * overrides them with a reason), then writes the version with its note and test results.
   */
  async execute(user: AdminUser, agentId: string, options: PublishOptions = {}): Promise<PublishResult> {
    await this.check(user, agentId);
    const tested = await adminTransaction(this.prisma, user, (tx) => tx.agent.findFirst({ where: { id: agentId, ...tenantScope(user) }, select: { updatedAt: true } }));
    if (!tested) throw new ResourceNotFoundError('agent', agentId);
    const tests = await this.gate.check(user, agentId, options.overrideReason);
    return adminTransaction(this.prisma, user, async (tx) => {
      const agent = await tx.agent.findFirst({ where: { id: agentId, ...tenantScope(user) } });
      if (!agent) throw new ResourceNotFoundError('agent', agentId);
      // Two publishes of one agent queue here, so each gets its own version number.
      await tx.$queryRaw`SELECT 1 FROM "Agent" WHERE "id" = ${agentId}::uuid FOR UPDATE`;
      const current = await tx.agent.findFirst({ where: { id: agentId }, select: { updatedAt: true } });
      if (current?.updatedAt.getTime() !== tested.updatedAt.getTime()) throw new DraftChangedDuringTestsError();

      const check = await this.validate(tx, agent.tenantId, agent.config);

      const last = await tx.agentVersion.aggregate({ where: { agentId }, _max: { version: true } });
      const version = (last._max.version ?? 0) + 1;
      const config = check.config as unknown as Prisma.InputJsonValue;
      const row = await tx.agentVersion.create({
        data: {
          tenantId: agent.tenantId,
          agentId,
          version,
          config,
          publishedById: user.id,
          note: options.note ?? null,
          testResults: tests as unknown as Prisma.InputJsonValue,
          overrideReason: tests.overrideReason ?? null,
          restoredFrom: options.restoredFrom ?? null,
        },
        select: versionSelect,
      });
      await tx.agent.update({ where: { id: agentId }, data: { publishedVersion: version } });
      await recordAudit(tx, user, {
        action: 'agent.publish',
        entityType: 'agent',
        entityId: agentId,
        tenantId: agent.tenantId,
        before: { publishedVersion: agent.publishedVersion },
        after: {
          publishedVersion: version,
          config: check.config,
          note: options.note ?? null,
          ...(options.restoredFrom !== undefined && { restoredFrom: options.restoredFrom }),
          tests: { total: tests.total, passed: tests.passed, failed: tests.failed, failing: tests.results.filter((r) => !r.passed).map((r) => r.name) },
          ...(tests.overrideReason && { overrideReason: tests.overrideReason }),
        },
      });
      return { agentId, version, publishedAt: row.publishedAt, warnings: check.warnings, note: options.note ?? null, tests };
    });
  }

  /**
   * The worker's own loader first (AgentLoadCheck, which also applies checkProviderEndpoint, the
   * worker's rule for endpoints and keys): whatever would make every turn fail `agent-unavailable`
   * is refused here, 422 at the input's JSON path. Then the engine's lint for the warnings.
   */
  private async validate(tx: Prisma.TransactionClient, tenantId: string, draft: unknown): Promise<PublishCheck> {
    const provider = (draft as { provider?: unknown } | null)?.provider;
    if (provider && typeof provider === 'object') await assertCredentialOfTenant(tx, tenantId, draft as AgentConfig, []);
    await this.loadCheck.assertLoadable(tx, tenantId, draft);
    try {
      return validateForPublish(draft, await knownToolIds(tx, tenantId), await knownActions(tx));
    } catch (err) {
      if (err instanceof FlowConfigurationError) throw new FlowConfigurationRejectedError(err);
      throw err;
    }
  }
}

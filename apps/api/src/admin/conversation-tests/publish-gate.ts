import { Injectable } from '@nestjs/common';
import { PrismaService, TenantQuotas } from '@switchboard/db';
import { ForbiddenError, UnprocessableError } from '../../common/errors';
import type { AdminUser } from '../auth/admin-user';
import { refuseOverQuota } from '../../limits/refuse-over-quota';
import { adminTransaction } from '../common/admin-transaction';
import { ConversationTests, testSelect } from './conversation-tests.service';
import type { TestRunResult } from './run-conversation-test';

/** Who may publish past failing tests, with a written reason. */
export const OVERRIDE_ROLES = ['owner', 'platform_admin'] as const;

/** What publishing records about the tests it ran. */
export interface PublishTestSummary {
  total: number;
  passed: number;
  failed: number;
  /** Set when failing tests were overridden. */
  overrideReason?: string;
  results: TestRunResult[];
}

export class PublishBlockedByTestsError extends UnprocessableError {
  constructor(summary: PublishTestSummary) {
    const names = summary.results.filter((r) => !r.passed).map((r) => `"${r.name}"`).join(', ');
    super(
      'publish-blocked-by-tests',
      `Not published: ${summary.failed} of ${summary.total} conversation tests failed (${names}). Fix the draft, or an owner may publish anyway with a written reason.`,
      summary,
    );
  }
}

export class OverrideNotAllowedError extends ForbiddenError {
  constructor(role: string) {
    super('override-needs-owner', `Only an owner may publish past failing tests; your role is ${role}.`);
  }
}

/**
 * Publishing's test gate: runs every conversation test of the agent against its saved draft.
 * Failing tests block the publish unless an owner gives a written reason; the summary (with the
 * reason) is what the version and the audit entry record. Tests run before publish's transaction
 * (they take a worker round trip each); publish then checks the draft did not change meanwhile.
 */
@Injectable()
export class PublishGate {
  constructor(
    private readonly prisma: PrismaService,
    private readonly tests: ConversationTests,
    private readonly quotas: TenantQuotas,
  ) {}

  async check(user: AdminUser, agentId: string, overrideReason: string | undefined): Promise<PublishTestSummary> {
    const rows = await adminTransaction(this.prisma, user, (tx) =>
      tx.conversationTest.findMany({ where: { agentId }, orderBy: { createdAt: 'asc' }, select: testSelect }),
    );
    // A live test calls the real model: over the monthly quota the publish is refused before
    // anything runs, as a live run from the Tests tab is (replayed tests are free and still run).
    const live = rows.find((t) => t.mode === 'live');
    if (live) await refuseOverQuota(this.quotas, live.tenantId, live.agentId);
    const results = await this.tests.runAll(rows, { kind: 'draft' }, 'draft');
    await this.tests.remember(results);
    const failed = results.filter((r) => !r.passed).length;
    const summary: PublishTestSummary = { total: results.length, passed: results.length - failed, failed, results };
    if (failed === 0) return summary;
    if (!overrideReason) throw new PublishBlockedByTestsError(summary);
    if (!(OVERRIDE_ROLES as readonly string[]).includes(user.role)) throw new OverrideNotAllowedError(user.role);
    return { ...summary, overrideReason };
  }
}

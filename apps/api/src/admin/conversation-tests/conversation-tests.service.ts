import { Injectable } from '@nestjs/common';
import { PrismaService, TenantQuotas, type Prisma } from '@switchboard/db';
import type { AgentRunTarget, RecordedCall } from '@switchboard/queue';
import { z } from 'zod';
import { UnprocessableError } from '../../common/errors';
import { ResourceNotFoundError } from '../admin-errors';
import { AgentRunsQueue } from '../agent-runs/agent-runs.queue';
import { refuseOverQuota } from '../../limits/refuse-over-quota';
import { resolveRunTarget, runTargetSchema, targetLabel } from '../agent-runs/run-target';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { isUuid } from '../list-query/filters';
import type { PlaygroundTurn } from '../playground/playground.usecase';
import { tenantScope } from '../tenant-scope';
import { expectationSchema, type TestTurn } from './expectations';
import { RunConversationTest, type TestRunResult } from './run-conversation-test';

const name = z.string().trim().min(1).max(200);
const mode = z.enum(['replay', 'live']);
const expectPerTurn = z.array(z.array(expectationSchema).max(50)).max(100);

export const createTestBody = z.strictObject({
  name,
  mode: mode.default('replay'),
  /** Where the conversation comes from: a playground conversation, or a real session's transcript. */
  from: z.union([z.strictObject({ playgroundId: z.string().uuid() }), z.strictObject({ sessionId: z.string().uuid() })]),
  /** Per customer message, in order, the expectations to check after it. */
  expect: expectPerTurn.default([]),
});
export type CreateTestBody = z.infer<typeof createTestBody>;

export const updateTestBody = z.strictObject({ name: name.optional(), mode: mode.optional(), expect: expectPerTurn.optional() });
export type UpdateTestBody = z.infer<typeof updateTestBody>;

export const runTestBody = z.strictObject({ target: runTargetSchema.default('draft'), config: z.unknown().optional() });
export type RunTestBody = z.infer<typeof runTestBody>;

export const testSelect = {
  id: true,
  tenantId: true,
  agentId: true,
  name: true,
  source: true,
  sourceId: true,
  recordedVersion: true,
  mode: true,
  turns: true,
  recording: true,
  lastRun: true,
  lastPassingReplies: true,
  createdAt: true,
  updatedAt: true,
} as const;
type TestRow = Prisma.ConversationTestGetPayload<{ select: typeof testSelect }>;

export class EmptyConversationError extends UnprocessableError {
  constructor(where: string) {
    super('empty-conversation', `${where} has no customer message to test. Send at least one message first.`);
  }
}

export class RecordingFailedError extends UnprocessableError {
  constructor(error: { code: string; message: string }) {
    super('test-recording-failed', `Recording the conversation failed: ${error.message}`, { engineCode: error.code });
  }
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

/** The stored test without its recording (large, and only the worker reads it). */
export type TestDto = Omit<TestRow, 'recording'> & { recordedCalls: number };
function toDto({ recording, ...row }: TestRow): TestDto {
  return { ...row, recordedCalls: (recording as unknown as RecordedCall[][]).reduce((n, t) => n + t.length, 0) };
}

/** Conversation tests of an agent: saved from the playground or a transcript, edited, run. */
@Injectable()
export class ConversationTests {
  constructor(
    private readonly prisma: PrismaService,
    private readonly runs: AgentRunsQueue,
    private readonly runner: RunConversationTest,
    private readonly quotas: TenantQuotas,
  ) {}

  async list(user: AdminUser, agentId: string): Promise<TestDto[]> {
    return adminTransaction(this.prisma, user, async (tx) => {
      await this.agent(tx, user, agentId);
      const rows = await tx.conversationTest.findMany({ where: { agentId }, orderBy: { createdAt: 'asc' }, select: testSelect });
      return rows.map(toDto);
    });
  }

  async get(user: AdminUser, agentId: string, testId: string): Promise<TestDto> {
    return adminTransaction(this.prisma, user, async (tx) => toDto(await this.find(tx, user, agentId, testId)));
  }

  async create(user: AdminUser, agentId: string, body: CreateTestBody): Promise<TestDto> {
    const source = await adminTransaction(this.prisma, user, async (tx) => {
      const agent = await this.agent(tx, user, agentId);
      if ('playgroundId' in body.from) {
        const pg = await tx.playgroundSession.findFirst({ where: { id: body.from.playgroundId, agentId }, select: { turns: true } });
        if (!pg) throw new ResourceNotFoundError('playground conversation', body.from.playgroundId);
        const turns = pg.turns as unknown as PlaygroundTurn[];
        if (!turns.length) throw new EmptyConversationError('The playground conversation');
        const versions = [...new Set(turns.map((t) => t.version))];
        return {
          agent,
          kind: 'playground' as const,
          sourceId: body.from.playgroundId,
          messages: turns.map((t) => t.message),
          recording: turns.map((t) => t.recording) as RecordedCall[][] | undefined,
          version: versions.length === 1 ? versions[0] : null,
        };
      }
      const session = await tx.session.findFirst({ where: { id: body.from.sessionId, agentId }, select: { id: true } });
      if (!session) throw new ResourceNotFoundError('session of this agent', body.from.sessionId);
      const inbound = await tx.message.findMany({
        where: { sessionId: session.id, direction: 'inbound', status: 'answered' },
        orderBy: { seq: 'asc' },
        select: { text: true },
      });
      if (!inbound.length) throw new EmptyConversationError('The session');
      const last = await tx.turn.findFirst({ where: { sessionId: session.id, agentVersion: { not: null } }, orderBy: { createdAt: 'desc' }, select: { agentVersion: true } });
      return { agent, kind: 'session' as const, sourceId: session.id, messages: inbound.map((m) => m.text), recording: undefined, version: last?.agentVersion ?? null };
    });
    let recording = source.recording;
    if (!recording) {
      // Recording calls the real model: refused over the monthly quota, like a playground turn.
      await refuseOverQuota(this.quotas, source.agent.tenantId, source.agent.id);
      // A transcript stores replies, not the model calls behind them: the customer's messages run
      // once, live, on the version the session ran, and that run's model replies are the recording.
      const target: AgentRunTarget = source.version === null ? { kind: 'draft' } : { kind: 'version', version: source.version };
      const answer = await this.runs.run({
        purpose: 'conversation-test',
        tenantId: source.agent.tenantId,
        agentId,
        target,
        runId: source.sourceId,
        mode: 'live',
        state: null,
        history: [],
        messages: source.messages,
      });
      if (!answer.ok) throw new RecordingFailedError(answer.error);
      recording = answer.turns.map((t) => t.recording);
    }
    const turns: TestTurn[] = source.messages.map((message, i) => ({ message, expect: body.expect[i] ?? [] }));
    return adminTransaction(this.prisma, user, async (tx) => {
      const row = await tx.conversationTest.create({
        data: {
          tenantId: source.agent.tenantId,
          agentId,
          name: body.name,
          source: source.kind,
          sourceId: source.sourceId,
          recordedVersion: source.version,
          mode: body.mode,
          turns: json(turns),
          recording: json(recording),
        },
        select: testSelect,
      });
      const dto = toDto(row);
      await recordAudit(tx, user, { action: 'conversation-test.create', entityType: 'conversation-test', entityId: row.id, tenantId: row.tenantId, after: dto });
      return dto;
    });
  }

  async update(user: AdminUser, agentId: string, testId: string, body: UpdateTestBody): Promise<TestDto> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = await this.find(tx, user, agentId, testId);
      const turns = (before.turns as TestTurn[]).map((t, i) => (body.expect ? { ...t, expect: body.expect[i] ?? [] } : t));
      const row = await tx.conversationTest.update({
        where: { id: testId },
        data: { ...(body.name !== undefined && { name: body.name }), ...(body.mode !== undefined && { mode: body.mode }), turns: json(turns) },
        select: testSelect,
      });
      await recordAudit(tx, user, { action: 'conversation-test.update', entityType: 'conversation-test', entityId: testId, tenantId: row.tenantId, before: toDto(before), after: toDto(row) });
      return toDto(row);
    });
  }

  async remove(user: AdminUser, agentId: string, testId: string): Promise<TestDto> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const row = await this.find(tx, user, agentId, testId);
      await tx.conversationTest.delete({ where: { id: testId } });
      await recordAudit(tx, user, { action: 'conversation-test.delete', entityType: 'conversation-test', entityId: testId, tenantId: row.tenantId, before: toDto(row) });
      return toDto(row);
    });
  }

  /** Runs one test (`testId`) or all of the agent's tests against `body.target`, and keeps each result on its test. */
  async run(user: AdminUser, agentId: string, body: RunTestBody, testId?: string): Promise<{ passed: boolean; results: TestRunResult[] }> {
    const { agent, target, tests } = await adminTransaction(this.prisma, user, async (tx) => {
      const agent = await this.agent(tx, user, agentId);
      const target = await resolveRunTarget(tx, agent, body.target, body.config);
      const tests = testId ? [await this.find(tx, user, agentId, testId)] : await tx.conversationTest.findMany({ where: { agentId }, orderBy: { createdAt: 'asc' }, select: testSelect });
      return { agent, target, tests };
    });
    // Live tests call the real model: refused over the monthly quota (replayed ones are free).
    if (tests.some((t) => t.mode === 'live')) await refuseOverQuota(this.quotas, agent.tenantId, agent.id);
    const results = await this.runAll(tests, target, targetLabel(body.target));
    await this.remember(results);
    return { passed: results.every((r) => r.passed), results };
  }

  /** Every test, one after the other (a worker runs each; the machine stays responsive). */
  async runAll(tests: readonly TestRow[], target: AgentRunTarget, label: string): Promise<TestRunResult[]> {
    const results: TestRunResult[] = [];
    for (const test of tests) results.push(await this.runner.execute(test, target, label));
    return results;
  }

  /** Keeps each test's last run, and the replies of its last passing one (the console diffs against them). */
  async remember(results: readonly TestRunResult[]): Promise<void> {
    for (const r of results) {
      await this.prisma.conversationTest.updateMany({
        where: { id: r.testId },
        data: { lastRun: json(r), ...(r.passed && { lastPassingReplies: json(r.turns.map((t) => t.replies)) }) },
      });
    }
  }

  private async agent(tx: Prisma.TransactionClient, user: AdminUser, agentId: string) {
    const agent = isUuid(agentId) ? await tx.agent.findFirst({ where: { id: agentId, ...tenantScope(user) }, select: { id: true, tenantId: true } }) : null;
    if (!agent) throw new ResourceNotFoundError('agent', agentId);
    return agent;
  }

  private async find(tx: Prisma.TransactionClient, user: AdminUser, agentId: string, testId: string): Promise<TestRow> {
    await this.agent(tx, user, agentId);
    const row = isUuid(testId) ? await tx.conversationTest.findFirst({ where: { id: testId, agentId }, select: testSelect }) : null;
    if (!row) throw new ResourceNotFoundError('conversation test', testId);
    return row;
  }
}

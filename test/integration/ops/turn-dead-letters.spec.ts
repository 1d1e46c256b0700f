import { conciergeAgentConfig } from '@switchboard/agent-config';
import { createBullQueue, QUEUES, turnJobId, type TurnJobData } from '@switchboard/queue';
import type { Queue } from 'bullmq';
import { createTenantFixture, type TenantFixture } from '../../support/fixtures';
import { eventually } from '../worker/support/private-api';
import { listPath, request, startOpsStack, tokenFor, type OpsStack } from './support/ops-stack';
import { fixTurnFault, queuedMessage, refuseTurnsOf, sweepJobId } from './support/turn-fault';
import { holdPostgresModeSlot } from '../../support/postgres-mode-slot';

// Turn dead letters end to end with a real worker: a turn job that fails every attempt is listed
// for its tenant only, its customer gets the agent's fallback message once (not silence), an
// operator redrives it once the fault is gone, and the message is answered exactly once — also
// when a second dead letter of the same message is redriven after.

jest.setTimeout(240_000);

interface DeadLetter {
  id: string;
  tenantId: string;
  sessionId: string;
  messageId: string | null;
  failedReason: string;
  attemptsMade: number;
  maxAttempts: number;
  failedAt: string | null;
  messageStatus: string | null;
}

// On Redis, and in Postgres mode (REDIS_URL unset: the queue is BullMQ's Postgres backend).
describe.each([
  ['redis', {}],
  ['postgres', { REDIS_URL: '' }],
] as const)('turn dead letters on %s: listed per tenant, redriven, answered once', (backend, backendEnv) => {
  holdPostgresModeSlot(backendEnv);
  let stack: OpsStack;
  let queue: Queue<TurnJobData>;
  let fx: TenantFixture;
  let other: TenantFixture;
  let operator: string;
  let viewer: string;
  let platform: string;
  let otherOperator: string;

  beforeAll(async () => {
    stack = await startOpsStack({}, backendEnv);
    queue = createBullQueue<TurnJobData>(QUEUES.turns, {
      QUEUE_BACKEND: backend,
      REDIS_URL: process.env.REDIS_URL!,
      DATABASE_URL: stack.databaseUrl,
      QUEUE_PREFIX: stack.queuePrefix,
    });
    fx = await createTenantFixture(stack.prisma, { agentConfig: conciergeAgentConfig });
    other = await createTenantFixture(stack.prisma, { agentConfig: conciergeAgentConfig });
    operator = await tokenFor(stack, 'operator', fx.tenant.id);
    viewer = await tokenFor(stack, 'viewer', fx.tenant.id);
    platform = await tokenFor(stack, 'platform_admin', null);
    otherOperator = await tokenFor(stack, 'operator', other.tenant.id);
  });

  afterAll(async () => {
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await stack?.stop();
  });

  const deadLettersOf = async (token: string, filter: Record<string, unknown> = {}) =>
    request<DeadLetter[]>(stack, token, 'GET', listPath('/v1/admin/dead-letters', { filter }));

  it('lists a failed turn job for its tenant, redrives it, and answers the message once', async () => {
    const { sessionId, messageId } = await queuedMessage(stack.prisma, queue, fx, (id) => [turnJobId(id), sweepJobId(id)]);
    await refuseTurnsOf(stack.prisma, sessionId);

    const listed = await eventually(async () => {
      const res = await deadLettersOf(operator, { sessionId });
      return res.body.length === 2 && res;
    }, 60_000);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('content-range')).toBe('dead-letters 0-1/2');
    const msgJob = listed.body.find((d) => d.id === turnJobId(messageId))!;
    expect(msgJob).toMatchObject({
      tenantId: fx.tenant.id,
      sessionId,
      messageId,
      attemptsMade: 2,
      maxAttempts: 2,
      failedAt: expect.any(String),
      messageStatus: 'queued',
      failedReason: expect.stringContaining('simulated fault: turn refused'),
    });

    // Another tenant sees none of it and cannot redrive it; a viewer may not look; a platform admin sees it.
    expect((await deadLettersOf(otherOperator)).body).toEqual([]);
    const foreign = await request<{ error: { code: string } }>(stack, otherOperator, 'POST', `/v1/admin/dead-letters/${msgJob.id}/redrive`);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not-found']);
    expect(await queue.getJobState(msgJob.id)).toBe('failed');
    expect((await deadLettersOf(viewer)).status).toBe(403);
    expect((await deadLettersOf(platform, { sessionId })).body.map((d) => d.id).sort()).toEqual(listed.body.map((d) => d.id).sort());

    // Queue view: the platform admin gets BullMQ's global counts, the tenant its own backlog.
    const global = await request<{ scope: string; queues: { name: string; counts: { failed: number } }[] }>(stack, platform, 'GET', '/v1/admin/queues');
    expect(global.body.scope).toBe('platform');
    expect(global.body.queues[0]).toMatchObject({ name: QUEUES.turns, counts: { failed: 2 } });
    const mine = await request<{ scope: string; queues?: unknown; backlog: { messagesQueued: number; deadLetters: number } }>(stack, operator, 'GET', '/v1/admin/queues');
    expect(mine.body).toMatchObject({ scope: 'tenant', backlog: { messagesQueued: 1, deadLetters: 2 } });
    expect(mine.body.queues).toBeUndefined();
    const theirs = await request<{ backlog: { messagesQueued: number; deadLetters: number } }>(stack, otherOperator, 'GET', '/v1/admin/queues');
    expect(theirs.body.backlog).toMatchObject({ messagesQueued: 0, deadLetters: 0 });

    // The customer heard of it once, though both jobs of the message failed; the message still waits for a redrive.
    const told = await eventually(async () => {
      const rows = await stack.prisma.message.findMany({ where: { sessionId, direction: 'outbound' } });
      return rows.length > 0 && rows;
    }, 30_000);
    expect(told.map((r) => [r.key, r.kind])).toEqual([[`fallback:dead-letter:${messageId}`, 'fallback']]);
    expect(told[0].text).not.toBe('');
    const deadLetterTurn = await stack.prisma.turn.findUniqueOrThrow({ where: { id: told[0].turnId! } });
    expect(deadLetterTurn.outcomeCodes).toEqual(['dead-lettered']);
    expect((await stack.prisma.message.findUniqueOrThrow({ where: { id: messageId } })).status).toBe('queued');

    await fixTurnFault(stack.prisma);
    const redriven = await request<DeadLetter>(stack, operator, 'POST', `/v1/admin/dead-letters/${msgJob.id}/redrive`);
    expect(redriven.status).toBe(200);
    expect(redriven.body).toMatchObject({ id: msgJob.id, attemptsMade: 0 });

    await eventually(async () => (await queue.getJobState(msgJob.id)) === 'completed', 60_000);
    expect((await stack.prisma.message.findUniqueOrThrow({ where: { id: messageId } })).status).toBe('answered');

    // The second dead letter of the same message: redriving it answers nothing twice.
    const second = await request<DeadLetter>(stack, operator, 'POST', `/v1/admin/dead-letters/${sweepJobId(messageId)}/redrive`);
    expect(second.status).toBe(200);
    await eventually(async () => (await queue.getJobState(sweepJobId(messageId))) === 'completed', 60_000);
    expect((await queue.getJob(sweepJobId(messageId)))?.returnvalue).toEqual({ status: 'already-answered' });

    const replies = await stack.prisma.message.findMany({ where: { sessionId, direction: 'outbound' }, orderBy: { seq: 'asc' } });
    expect(replies.map((r) => r.text)).toEqual([told[0].text, 'A diária em Curitiba sai por R$ 420. Posso reservar?']);
    expect(await stack.prisma.turn.count({ where: { sessionId } })).toBe(2);

    // A job that is no longer failed cannot be redriven again; the list is empty now.
    const again = await request<{ error: { code: string } }>(stack, operator, 'POST', `/v1/admin/dead-letters/${msgJob.id}/redrive`);
    expect([again.status, again.body.error.code]).toEqual([409, 'dead-letter-not-failed']);
    expect((await deadLettersOf(operator, { sessionId })).body).toEqual([]);

    const audit = await stack.prisma.auditLog.findMany({ where: { tenantId: fx.tenant.id, action: 'dead-letter.redrive' }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => [a.entityType, a.entityId])).toEqual([
      ['turn-job', msgJob.id],
      ['turn-job', sweepJobId(messageId)],
    ]);
  });

  it('refuses bad list queries and unknown ids with a code', async () => {
    const badFilter = await deadLettersOf(operator, { sessionId: 'nope' });
    expect([badFilter.status, (badFilter.body as unknown as { error: { code: string } }).error.code]).toEqual([400, 'invalid-filter']);
    const badSort = await request<{ error: { code: string } }>(stack, operator, 'GET', listPath('/v1/admin/dead-letters', { sort: ['tenantId', 'ASC'] }));
    expect([badSort.status, badSort.body.error.code]).toEqual([400, 'invalid-sort']);
    for (const id of ['msg-not-a-uuid', turnJobId('3f1b7a52-9c1e-4d7a-8a47-0d6f3f1b7a52'), 'wake-xyz', 'msg-3f1b7a52-9c1e-4d7a-8a47-0d6f3f1b7a52;x']) {
      const res = await request<{ error: { code: string } }>(stack, operator, 'POST', `/v1/admin/dead-letters/${encodeURIComponent(id)}/redrive`);
      expect([id, res.status, res.body.error.code]).toEqual([id, 404, 'not-found']);
    }
  });
});

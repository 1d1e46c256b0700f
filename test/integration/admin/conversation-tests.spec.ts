import type { AgentConfig } from '@switchboard/agent-config';
import { conciergeAgentConfig, hospedagemFlowSpec } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, startPrivateApi, type PrivateApi } from '../worker/support/private-api';
import { createUser, errorOf, openDb, PASSWORD } from './support/admin-fixtures';

// Safe iteration end to end (issue 18, docs/conversation-tests.md): a real worker answers a real
// customer session; a conversation test saved from its transcript replays green on that version;
// an edit of the question fails the named expectation and blocks publish; an owner overrides with
// a reason (audited); restoring v1 runs the same conversation; the playground runs the draft
// without a channel, key, session or usage row. Its own API and queue prefix.

jest.setTimeout(300_000);

const QUESTION = 'Em qual cidade você quer ficar?';
/** The Concierge with a fixed first question: sent word for word, so an edit changes the reply. */
const config: AgentConfig = {
  ...conciergeAgentConfig,
  flows: [{ ...hospedagemFlowSpec, steps: hospedagemFlowSpec.steps.map((s) => (s.id === 'onde' ? { ...s, question: QUESTION } : s)) }],
};
const withQuestion = (question: string): AgentConfig => ({
  ...config,
  flows: [{ ...hospedagemFlowSpec, steps: hospedagemFlowSpec.steps.map((s) => (s.id === 'onde' ? { ...s, question } : s)) }],
});

let db: PrismaClient;
let api: PrivateApi;
let worker: WorkerProcess;
let fx: TenantFixture;
let owner: string;
let admin: string;
let sessionId: string;

async function loginAt(email: string): Promise<string> {
  const res = await fetch(`${api.baseUrl}/v1/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function send<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, as = owner) {
  const res = await fetch(`${api.baseUrl}/v1/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${as}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

interface TestRun {
  passed: boolean;
  results: { name: string; passed: boolean; target: string; turns: { replies: string[]; passed: boolean; expectations: { name: string; passed: boolean; detail: string }[] }[] }[];
}

interface ConsoleLine {
  turns: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
}
interface UsageSummary {
  turns: number;
  llmCalls: number;
  console: { playground: ConsoleLine; 'conversation-test': ConsoleLine };
}

/** What customers did: channels, keys, sessions, messages, turns and every customer usage roll-up (tables and API). */
async function customerCounts() {
  const where = { tenantId: fx.tenant.id };
  const [channels, keys, sessions, messages, turns, usage, outcomes, summary] = await Promise.all([
    db.channel.count({ where }),
    db.apiKey.count({ where }),
    db.session.count({ where }),
    db.message.count({ where }),
    db.turn.count({ where }),
    db.usageDaily.aggregate({ where, _sum: { turns: true, llmCalls: true, inputTokens: true } }),
    db.usageOutcomeDaily.aggregate({ where, _sum: { turns: true } }),
    send<UsageSummary>('GET', '/usage/summary'),
  ]);
  return {
    channels,
    keys,
    sessions,
    messages,
    turns,
    usage: usage._sum,
    outcomeTurns: outcomes._sum.turns ?? 0,
    summary: { turns: summary.body.turns, llmCalls: summary.body.llmCalls },
  };
}

/** The console's own usage line, per source, from the API. */
async function consoleUsage(): Promise<UsageSummary['console']> {
  return (await send<UsageSummary>('GET', '/usage/summary')).body.console;
}

beforeAll(async () => {
  db = openDb();
  api = await startPrivateApi();
  worker = await startWorker({ QUEUE_PREFIX: api.queuePrefix });
  fx = await createTenantFixture(db, { agentConfig: config });
  owner = await loginAt((await createUser(db, 'owner', fx.tenant.id)).email);
  admin = await loginAt((await createUser(db, 'admin', fx.tenant.id)).email);
  // A real customer conversation on v1, answered by the worker.
  const session = `guest-${uniqueSuffix()}`;
  for (const text of ['Oi, quero um quarto', 'Rio de Janeiro']) {
    const res = await call<{ sessionId: string; replies: { text: string }[] }>(api, 'POST', '/v1/messages?wait=30', fx.apiKey, { session, text });
    expect(res.status).toBe(200);
    expect(res.body.replies.length).toBeGreaterThan(0);
    sessionId = res.body.sessionId;
  }
}, 240_000);

afterAll(async () => {
  await worker?.stop();
  await api?.stop();
  await db?.$disconnect();
});

describe('the draft playground', () => {
  it('runs the saved draft, an unsaved config and a version through the real engine and tools, creating no channel, key, session or usage', async () => {
    const before = await customerCounts();
    expect(before.summary.turns).toBe(2); // the customer conversation of beforeAll
    const consoleBefore = await consoleUsage();
    const first = await send<{ playgroundId: string; turn: { replies: { text: string }[]; trace: { type: string }[]; llmCalls: number; target: string } }>(
      'POST',
      `/agents/${fx.agent.id}/playground/turns`,
      { message: 'Oi, quero um quarto', target: 'draft' },
    );
    expect(first.status).toBe(200);
    expect(first.body.turn.replies.map((r) => r.text)).toEqual([QUESTION]);
    expect(first.body.turn.target).toBe('draft');

    const second = await send<{ turn: { replies: { text: string }[]; trace: { type: string; tool?: string; gate?: string }[]; llmCalls: number; fields: Record<string, unknown> } }>(
      'POST',
      `/agents/${fx.agent.id}/playground/turns`,
      { playgroundId: first.body.playgroundId, message: 'Rio de Janeiro', target: 1 },
    );
    expect(second.status).toBe(200);
    expect(second.body.turn.replies[0].text).toContain('R$');
    // The same trace as a transcript turn: model calls and the real preco tool with its arguments.
    expect(second.body.turn.trace).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'model' }), expect.objectContaining({ type: 'tool', tool: 'preco', gate: 'ok' })]));
    expect(second.body.turn.llmCalls).toBeGreaterThan(0);
    expect(second.body.turn.fields).toMatchObject({ cidade: 'Rio de Janeiro' });

    const unsaved = await send<{ turn: { replies: { text: string }[] } }>('POST', `/agents/${fx.agent.id}/playground/turns`, {
      message: 'Oi, quero um quarto',
      target: 'unsaved',
      config: withQuestion('Para qual cidade você vai?'),
    });
    expect(unsaved.body.turn.replies.map((r) => r.text)).toEqual(['Para qual cidade você vai?']);

    const broken = await send('POST', `/agents/${fx.agent.id}/playground/turns`, {
      message: 'Oi',
      target: 'unsaved',
      config: { ...config, tools: ['no_such_tool'] },
    });
    expect(broken.status).toBe(422);
    expect(errorOf(broken.body)).toMatchObject({ code: 'flow-configuration', details: { path: ['tools', 0] } });

    const stored = await send<{ turns: unknown[] }>('GET', `/agents/${fx.agent.id}/playground/${first.body.playgroundId}`);
    expect(stored.body.turns).toHaveLength(2);
    expect(await customerCounts()).toEqual(before);

    // The three turns that ran are the playground's own usage line (the refused one never ran).
    const calls = first.body.turn.llmCalls + second.body.turn.llmCalls + (unsaved.body as unknown as { turn: { llmCalls: number } }).turn.llmCalls;
    const after = await consoleUsage();
    expect(after.playground).toMatchObject({ turns: consoleBefore.playground.turns + 3, llmCalls: consoleBefore.playground.llmCalls + calls });
    expect(after['conversation-test']).toEqual(consoleBefore['conversation-test']);
    const row = await db.consoleUsageDaily.findFirstOrThrow({ where: { tenantId: fx.tenant.id, agentId: fx.agent.id, source: 'playground' } });
    expect(row).toMatchObject({ turns: 3, llmCalls: BigInt(calls) });
  });
});

describe('conversation tests and the publish gate', () => {
  let testId: string;
  let v1Replies: string[][];

  it('saves a test from a real transcript, and it replays green on the version it was recorded on', async () => {
    const customersBefore = await customerCounts();
    const consoleBefore = await consoleUsage();
    const created = await send<{ id: string; source: string; recordedVersion: number; recordedCalls: number; turns: { message: string }[] }>('POST', `/agents/${fx.agent.id}/tests`, {
      name: 'books in Rio',
      from: { sessionId },
      expect: [
        [{ kind: 'reply-contains', text: QUESTION, name: 'asks the city' }, { kind: 'no-failed-outcome' }],
        [
          { kind: 'reply-matches', pattern: 'R\\$ \\d+' },
          { kind: 'tool-called', tool: 'preco', args: { cidade: 'Rio de Janeiro' } },
          { kind: 'tool-not-called', tool: 'reservar' },
          { kind: 'field-equals', field: 'cidade', value: 'Rio de Janeiro' },
          { kind: 'max-model-calls', max: 10 },
        ],
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ source: 'session', recordedVersion: 1, turns: [{ message: 'Oi, quero um quarto' }, { message: 'Rio de Janeiro' }] });
    expect(created.body.recordedCalls).toBeGreaterThan(0);
    testId = created.body.id;

    const run = await send<TestRun>('POST', `/agents/${fx.agent.id}/tests/${testId}/run`, { target: 1 });
    expect(run.status).toBe(200);
    expect(run.body.results[0].turns.flatMap((t) => t.expectations.filter((e) => !e.passed))).toEqual([]);
    expect(run.body).toMatchObject({ passed: true, results: [{ name: 'books in Rio', target: 'v1', passed: true }] });
    v1Replies = run.body.results[0].turns.map((t) => t.replies);
    expect(v1Replies[0]).toEqual([QUESTION]);

    // Recording ran the two messages live: the tests' own usage line, never a customer's. The
    // replayed run called no model and recorded nothing.
    expect(await customerCounts()).toEqual(customersBefore);
    const after = await consoleUsage();
    expect(after['conversation-test'].turns).toBe(consoleBefore['conversation-test'].turns + 2);
    expect(after['conversation-test'].llmCalls).toBe(consoleBefore['conversation-test'].llmCalls + created.body.recordedCalls);
    expect(after.playground).toEqual(consoleBefore.playground);
  });

  it('reports which model call diverged when the requests no longer fit the recording', async () => {
    // Without the fixed question the first turn needs a model call the recording does not have.
    const noQuestion: AgentConfig = { ...config, flows: [{ ...hospedagemFlowSpec }] };
    const run = await send<TestRun & { results: { diverged?: { turn: number; call: number; message: string } }[] }>('POST', `/agents/${fx.agent.id}/tests/${testId}/run`, {
      target: 'unsaved',
      config: noQuestion,
    });
    expect(run.status).toBe(200);
    const [result] = run.body.results;
    expect(result.passed).toBe(false);
    expect(result.diverged).toMatchObject({ turn: 1 });
    expect(result.diverged!.message).toMatch(/^turn 1, model call \d+ \((understand|speak), round \d+\): /);
    const [first, second] = result.turns as { passed: boolean; error?: { code: string; message: string } }[];
    expect(first).toMatchObject({ passed: false, error: { code: 'replay-diverged', message: result.diverged!.message } });
    expect(second).toMatchObject({ passed: false, error: { code: 'turn-not-reached' } });
    expect(second.error!.message).toContain(`not reached: the replay diverged at ${result.diverged!.message}`);
  });

  it('fails the named expectation when an edit changes the reply, and publish is refused with the results', async () => {
    const edited = await send('PUT', `/agents/${fx.agent.id}`, { config: withQuestion('De onde você é?') });
    expect(edited.status).toBe(200);
    const run = await send<TestRun>('POST', `/agents/${fx.agent.id}/tests/run`, { target: 'draft' });
    expect(run.body.passed).toBe(false);
    const failed = run.body.results[0].turns[0].expectations.filter((e) => !e.passed);
    expect(failed).toEqual([{ name: 'asks the city', kind: 'reply-contains', passed: false, detail: 'reply: "De onde você é?"' }]);

    const refused = await send('POST', `/agents/${fx.agent.id}/publish`, { note: 'new question' });
    expect(refused.status).toBe(422);
    const error = errorOf(refused.body);
    expect(error.code).toBe('publish-blocked-by-tests');
    expect(error.message).toContain('"books in Rio"');
    expect(error.details).toMatchObject({ total: 1, failed: 1, results: [{ name: 'books in Rio', passed: false }] });
    expect((await db.agent.findUniqueOrThrow({ where: { id: fx.agent.id } })).publishedVersion).toBe(1);
  });

  it('lets only an owner publish past failing tests, with a written reason that is audited and shown in the version list', async () => {
    const byAdmin = await send('POST', `/agents/${fx.agent.id}/publish`, { overrideReason: 'Marketing asked for the new wording today' }, admin);
    expect(byAdmin.status).toBe(403);
    expect(errorOf(byAdmin.body).code).toBe('override-needs-owner');
    const tooShort = await send('POST', `/agents/${fx.agent.id}/publish`, { overrideReason: 'ok' });
    expect(tooShort.status).toBe(400);

    const published = await send<{ version: number; note: string; tests: { failed: number; overrideReason: string } }>('POST', `/agents/${fx.agent.id}/publish`, {
      note: 'new question',
      overrideReason: 'Marketing asked for the new wording today',
    });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ version: 2, note: 'new question', tests: { failed: 1, overrideReason: 'Marketing asked for the new wording today' } });

    const versions = await send<{ version: number; note: string | null; overrideReason: string | null }[]>('GET', `/agents/${fx.agent.id}/versions`);
    expect(versions.body[0]).toMatchObject({ version: 2, note: 'new question', overrideReason: 'Marketing asked for the new wording today' });
    const audit = await db.auditLog.findFirstOrThrow({ where: { entityId: fx.agent.id, action: 'agent.publish' }, orderBy: { createdAt: 'desc' } });
    expect(audit.after).toMatchObject({ publishedVersion: 2, overrideReason: 'Marketing asked for the new wording today', tests: { failed: 1, failing: ['books in Rio'] } });
  });

  it('restores v1 as the draft and publishes it through the gate; the restored version runs the same conversation', async () => {
    const agentBefore = await send<{ unpublishedChanges: boolean }>('GET', `/agents/${fx.agent.id}`);
    expect(agentBefore.body.unpublishedChanges).toBe(false);

    const restored = await send<{ restoredFrom: number; published: { version: number; tests: { passed: number; failed: number } } }>(
      'POST',
      `/agents/${fx.agent.id}/versions/1/restore`,
      { publish: true, note: 'back to the old question' },
    );
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ restoredFrom: 1, published: { version: 3, tests: { passed: 1, failed: 0 } } });
    const run = await send<TestRun>('POST', `/agents/${fx.agent.id}/tests/${testId}/run`, { target: 3 });
    expect(run.body.passed).toBe(true);
    expect(run.body.results[0].turns.map((t) => t.replies)).toEqual(v1Replies);

    const diff = await send<{ changes: unknown[] }>('GET', `/agents/${fx.agent.id}/diff?from=1&to=draft`);
    expect(diff.body.changes).toEqual([]);
    // The console's form saves the draft without `name` (the engine then takes the agent's name, here the
    // same): the diff shows the real change only, no phantom /name removal.
    const { name, ...withoutName } = withQuestion('Qual cidade?');
    expect((await send('PUT', `/agents/${fx.agent.id}`, { name, config: withoutName })).status).toBe(200);
    const edited = await send<{ changes: { path: string }[] }>('GET', `/agents/${fx.agent.id}/diff?from=3&to=draft`);
    expect(edited.body.changes.map((c) => c.path)).toEqual([expect.stringMatching(/^\/flows\/0\/steps\/\d+\/question$/)]);
    const list = await send<{ id: string; unpublishedChanges: boolean }[]>('GET', '/agents');
    expect(list.body.find((a) => a.id === fx.agent.id)?.unpublishedChanges).toBe(true);
  });
});

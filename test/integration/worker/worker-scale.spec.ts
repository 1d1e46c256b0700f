import type { AgentConfig } from '@switchboard/agent-config';
import { conciergeAgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { startApi, stopApi, type ApiProcess } from '../../support/api-process';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { eventually } from './support/private-api';
import { unique } from './support/rows';
import { deleteQueueKeys } from '../../support/queue-keys';

// The worker pipeline issue's acceptance at full size: 3 worker processes, 50 sessions × 20
// messages posted concurrently. Every message answered exactly once, in order per session, and
// no two turns of one session ever overlap (turn start/end recorded per session from the
// workers' "turn committed" log lines).

const SESSIONS = 50;
const MESSAGES = 20;
const WORKERS = 3;

// An agent with no flows whose scripted model echoes the message: each reply names the inbound
// message it answers, so order is checked on the replies themselves.
const echoAgent: AgentConfig = {
  ...conciergeAgentConfig,
  name: 'Echo',
  flows: [],
  fields: {},
  tools: [],
  provider: { kind: 'scripted', model: 'echo-script', scripted: { latencyMs: 5, rules: [{ call: 'speak', reply: 'eco: {{message}}' }] } },
};

interface PostAnswer {
  messageId: string;
  sessionId: string;
}

jest.setTimeout(600_000);

describe('worker: 3 processes × 50 sessions × 20 messages', () => {
  let api: ApiProcess;
  let prisma: PrismaClient;
  let fx: TenantFixture;
  let workers: WorkerProcess[] = [];
  const queuePrefix = unique('sbt-scale');

  beforeAll(async () => {
    // Its own API and queue (the shared one belongs to the API tests), with ingest limits above
    // the 1,000 messages this test posts in a few seconds.
    api = await startApi(
      { ...process.env, QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'warn', RATE_LIMIT_KEY_PER_MINUTE: '100000', RATE_LIMIT_TENANT_PER_MINUTE: '100000' },
      queuePrefix,
    );
    prisma = testPrisma();
    fx = await createTenantFixture(prisma, { agentConfig: echoAgent });
    workers = await Promise.all(
      Array.from({ length: WORKERS }, () => startWorker({ QUEUE_PREFIX: queuePrefix, WORKER_CONCURRENCY: '8' })),
    );
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill()));
    if (api) await stopApi(api.child);
    await deleteQueueKeys(queuePrefix);
    await prisma?.$disconnect();
  });

  async function post(session: string, text: string): Promise<PostAnswer> {
    const res = await fetch(`${api.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session, text }),
    });
    const body = (await res.json()) as PostAnswer;
    if (res.status !== 202) throw new Error(`POST /v1/messages answered ${res.status}: ${JSON.stringify(body)}`);
    return body;
  }

  it('answers every message once, in order per session, one turn of a session at a time', async () => {
    const names = Array.from({ length: SESSIONS }, (_, i) => `scale-${i}-${uniqueSuffix()}`);
    // Each session posts its messages one after another (so arrival order is defined); the 50
    // sessions post at the same time.
    const posted = await Promise.all(
      names.map(async (session) => {
        const out: PostAnswer[] = [];
        for (let m = 0; m < MESSAGES; m++) out.push(await post(session, `${session} #${m}`));
        return out;
      }),
    );
    const sessionIds = posted.map((p) => p[0].sessionId);

    const deadline = Date.now() + 480_000;
    for (;;) {
      const left = await prisma.message.count({ where: { sessionId: { in: sessionIds }, direction: 'inbound', status: { not: 'answered' } } });
      if (left === 0) break;
      if (Date.now() > deadline) throw new Error(`${left} messages still unanswered`);
      await new Promise((r) => setTimeout(r, 500));
    }

    // A worker logs "turn committed" just after its commit: wait for the last lines to arrive.
    const committedLines = () => workers.flatMap((w) => w.logs.filter((l) => l.msg === 'turn committed'));
    await eventually(async () => committedLines().length >= SESSIONS * MESSAGES, 30_000).catch(() => undefined);
    const committed = committedLines();
    // Every worker took part: the load really was spread across processes.
    for (const w of workers) expect(w.logs.some((l) => l.msg === 'turn committed')).toBe(true);

    const inbound = await prisma.message.findMany({
      where: { sessionId: { in: sessionIds }, direction: 'inbound' },
      orderBy: [{ sessionId: 'asc' }, { seq: 'asc' }],
      select: { id: true, sessionId: true, text: true, status: true, turnId: true },
    });
    const outbound = await prisma.message.findMany({
      where: { sessionId: { in: sessionIds }, direction: 'outbound' },
      orderBy: [{ sessionId: 'asc' }, { seq: 'asc' }],
      select: { sessionId: true, text: true, turnId: true },
    });
    const turns = await prisma.turn.findMany({ where: { sessionId: { in: sessionIds } }, select: { id: true, sessionId: true } });
    expect(inbound).toHaveLength(SESSIONS * MESSAGES);
    expect(outbound).toHaveLength(SESSIONS * MESSAGES);
    expect(turns).toHaveLength(SESSIONS * MESSAGES);

    for (const [i, sessionId] of sessionIds.entries()) {
      const mine = inbound.filter((m) => m.sessionId === sessionId);
      expect(mine.map((m) => m.id)).toEqual(posted[i].map((p) => p.messageId));
      expect(mine.every((m) => m.status === 'answered')).toBe(true);

      // Exactly one reply per message, in the order the messages arrived, each in the turn that
      // answered its message.
      const replies = outbound.filter((m) => m.sessionId === sessionId);
      expect(replies.map((r) => r.text)).toEqual(mine.map((m) => `eco: ${m.text}`));
      expect(replies.map((r) => r.turnId)).toEqual(mine.map((m) => m.turnId));
      expect(new Set(replies.map((r) => r.turnId)).size).toBe(MESSAGES);

      // The spans of this session's turns, from all processes' logs, never overlap.
      const spans = committed
        .filter((l) => l.sessionId === sessionId)
        .map((l) => ({ start: Number(l.startedAt), end: Number(l.at) }))
        .sort((a, b) => a.start - b.start);
      expect(spans).toHaveLength(MESSAGES);
      for (let k = 1; k < spans.length; k++) expect(spans[k].start).toBeGreaterThanOrEqual(spans[k - 1].end);
    }
  });
});

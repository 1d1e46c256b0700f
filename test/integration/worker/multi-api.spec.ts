import type { AgentConfig } from '@switchboard/agent-config';
import { conciergeAgentConfig } from '@switchboard/agent-config';
import type { PrismaClient } from '@switchboard/db';
import { startApi, stopApi, type ApiProcess } from '../../support/api-process';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../../support/fixtures';
import { SseClient } from '../../support/sse-client';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { eventually } from './support/private-api';
import { unique } from './support/rows';
import { deleteQueueKeys } from '../../support/queue-keys';

// More than one API process (issue #24): two APIs and three workers on the same Postgres, Redis
// and queue. A `?wait` held by one API and an SSE stream open on the other both receive the
// reply, whichever worker committed it: replies travel through Redis, never through the process
// that accepted the message.

const SESSIONS = 12;

const echoAgent: AgentConfig = {
  ...conciergeAgentConfig,
  name: 'Echo',
  flows: [],
  fields: {},
  tools: [],
  provider: { kind: 'scripted', model: 'echo-script', scripted: { latencyMs: 5, rules: [{ call: 'speak', reply: 'eco: {{message}}' }] } },
};

interface Answer {
  messageId: string;
  sessionId: string;
  status: string;
  replies?: { id: string; text: string }[];
}

jest.setTimeout(240_000);

describe('two API processes, three workers', () => {
  const queuePrefix = unique('sbt-multi');
  let apis: ApiProcess[] = [];
  let workers: WorkerProcess[] = [];
  let prisma: PrismaClient;
  let fx: TenantFixture;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    const env = { ...process.env, QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'warn' };
    apis = await Promise.all([startApi(env, `${queuePrefix}-a`), startApi(env, `${queuePrefix}-b`)]);
    prisma = testPrisma();
    fx = await createTenantFixture(prisma, { agentConfig: echoAgent });
    workers = await Promise.all(Array.from({ length: 3 }, () => startWorker({ QUEUE_PREFIX: queuePrefix, WORKER_CONCURRENCY: '4' })));
  });

  afterAll(async () => {
    for (const s of streams) s.close();
    await Promise.all(workers.map((w) => w.kill()));
    await Promise.all(apis.map((a) => stopApi(a.child)));
    await deleteQueueKeys(queuePrefix);
    await prisma?.$disconnect();
  });

  async function post(api: ApiProcess, session: string, text: string, wait?: number): Promise<{ status: number; body: Answer }> {
    const res = await fetch(`${api.baseUrl}/v1/messages${wait ? `?wait=${wait}` : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session, text }),
    });
    return { status: res.status, body: (await res.json()) as Answer };
  }

  /** The worker (by index) whose log says it committed the turn that answered `messageId`. */
  function committer(messageId: string): number {
    return workers.findIndex((w) => w.logs.some((l) => l.msg === 'turn committed' && Array.isArray(l.answered) && l.answered.includes(messageId)));
  }

  it('answers a ?wait on either API and streams to an SSE client on the other, whichever worker committed', async () => {
    const [a, b] = apis;
    const answered: string[] = [];

    await Promise.all(
      Array.from({ length: SESSIONS }, async (_, i) => {
        const session = `multi-${i}-${uniqueSuffix()}`;
        // Held by one API (alternating), answered by whichever worker took the job.
        const [holder, other] = i % 2 === 0 ? [a, b] : [b, a];
        const first = await post(holder, session, `um ${i}`, 20);
        expect(first.status).toBe(200);
        expect(first.body).toMatchObject({ status: 'answered', replies: [{ text: `eco: um ${i}` }] });
        answered.push(first.body.messageId);

        // A stream open on the other API receives the next reply, posted through the first.
        const sse = new SseClient();
        streams.push(sse);
        await sse.open(`${other.baseUrl}/v1/sessions/${first.body.sessionId}/stream`, fx.apiKey);
        const second = await post(holder, session, `dois ${i}`);
        expect(second.status).toBe(202);
        const committed = await sse.until(() => sse.events.find((e) => e.event === 'committed' && (e.data.answered as string[]).includes(second.body.messageId)));
        expect(committed.data).toMatchObject({ status: 'answered', replies: [{ text: `eco: dois ${i}` }] });
        answered.push(second.body.messageId);
        sse.close();
      }),
    );

    // Every reply was committed by a worker that logged it (log lines arrive a moment after the
    // reply), and more than one worker did the work.
    const committers = await eventually(async () => {
      const found = answered.map(committer);
      return !found.includes(-1) && new Set(found);
    }, 10_000);
    expect(committers.size).toBeGreaterThanOrEqual(2);
    const inbound = await prisma.message.count({ where: { tenantId: fx.tenant.id, direction: 'inbound', status: 'answered' } });
    expect(inbound).toBe(SESSIONS * 2);
  });
});

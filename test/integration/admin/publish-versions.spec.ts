import type { AgentConfig } from '@switchboard/agent-config';
import { generateApiKey, type PrismaClient } from '@switchboard/db';
import { testPrisma, uniqueSuffix } from '../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../support/worker-process';
import { call, startPrivateApi, type PrivateApi } from '../worker/support/private-api';
import { createUser, PASSWORD } from './support/admin-fixtures';

// Publishing makes version N+1 and the next turn runs on it: through the admin API (publish,
// edit the draft, publish again) and a real worker, on a private API with its own queue.

jest.setTimeout(180_000);

const replying = (text: string, model: string): AgentConfig => ({
  provider: { kind: 'scripted', model, scripted: { rules: [{ call: 'speak', reply: text }] } },
  fields: {},
  flows: [],
  tools: [],
});

interface PostAnswer {
  sessionId: string;
  messageId: string;
  replies: { id: string; text: string }[];
}

describe('publishing an agent', () => {
  let api: PrivateApi;
  let prisma: PrismaClient;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    api = await startPrivateApi();
    prisma = testPrisma();
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await prisma?.$disconnect();
  });

  async function admin<T>(token: string, method: 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(api.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  it('creates version N+1, and the turns after it run on the new version while earlier ones keep theirs', async () => {
    const suffix = uniqueSuffix();
    const tenant = await prisma.tenant.create({ data: { name: `Publish ${suffix}`, slug: `pub-${suffix}` } });
    // A draft only: nothing is published yet.
    const agent = await prisma.agent.create({ data: { tenantId: tenant.id, name: 'Versioned', config: replying('Reply of version one.', 'script-v1') as object } });
    const channel = await prisma.channel.create({ data: { tenantId: tenant.id, agentId: agent.id, name: 'Web' } });
    const key = generateApiKey();
    await prisma.apiKey.create({ data: { tenantId: tenant.id, channelId: channel.id, name: 'test', prefix: key.prefix, keyHash: key.hash } });
    const owner = await createUser(prisma, 'owner', tenant.id);
    const login = await fetch(`${api.baseUrl}/v1/admin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner.email, password: PASSWORD }),
    });
    const token = ((await login.json()) as { accessToken: string }).accessToken;
    worker = await startWorker({ QUEUE_PREFIX: api.queuePrefix });
    const session = `pub-${suffix}`;
    const send = (text: string) => call<PostAnswer>(api, 'POST', '/v1/messages?wait=30', key.key, { session, text });

    const v1 = await admin<{ version: number }>(token, 'POST', `/v1/admin/agents/${agent.id}/publish`);
    expect(v1).toMatchObject({ status: 200, body: { version: 1 } });
    const first = await send('hello');
    expect(first.status).toBe(200);
    expect(first.body.replies.map((r) => r.text)).toEqual(['Reply of version one.']);

    // An edited draft is not what customers talk to until it is published.
    const edited = await admin(token, 'PUT', `/v1/admin/agents/${agent.id}`, { config: replying('Reply of version two.', 'script-v2') });
    expect(edited.status).toBe(200);
    const unpublished = await send('still there?');
    expect(unpublished.status).toBe(200);
    expect(unpublished.body.replies.map((r) => r.text)).toEqual(['Reply of version one.']);

    const v2 = await admin<{ version: number }>(token, 'POST', `/v1/admin/agents/${agent.id}/publish`);
    expect(v2).toMatchObject({ status: 200, body: { version: 2 } });
    const second = await send('and now?');
    expect(second.status).toBe(200);
    expect(second.body.replies.map((r) => r.text)).toEqual(['Reply of version two.']);

    // The same session moved to version 2; the turns before it keep their version.
    const turns = await prisma.turn.findMany({
      where: { sessionId: first.body.sessionId },
      orderBy: { createdAt: 'asc' },
      select: { agentVersion: true, messages: { where: { direction: 'outbound' }, select: { text: true } } },
    });
    expect(turns.map((t) => [t.agentVersion, t.messages.map((m) => m.text)])).toEqual([
      [1, ['Reply of version one.']],
      [1, ['Reply of version one.']],
      [2, ['Reply of version two.']],
    ]);
    const versions = await prisma.agentVersion.findMany({ where: { agentId: agent.id }, orderBy: { version: 'asc' } });
    expect(versions.map((v) => [v.version, v.publishedById])).toEqual([
      [1, owner.id],
      [2, owner.id],
    ]);
    expect((await prisma.agent.findUniqueOrThrow({ where: { id: agent.id } })).publishedVersion).toBe(2);
  });
});

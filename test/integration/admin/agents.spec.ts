import type { PrismaClient } from '@switchboard/db';
import { adminGet, adminSend, errorOf, openDb, tenantWithUsers, unique } from './support/admin-fixtures';

jest.setTimeout(60_000);

let db: PrismaClient;
let world: Awaited<ReturnType<typeof tenantWithUsers<'owner' | 'viewer'>>>;
let owner: string;

const validConfig = (tools: string[], stepTools: string[]) => ({
  provider: { kind: 'scripted', model: 'scripted' },
  fields: { city: { type: 'string', ask: 'Which city?' }, guests: { type: 'integer' } },
  tools,
  flows: [
    {
      id: 'booking',
      name: 'Booking',
      on: [{ message: ['I want to book a room'] }],
      steps: [
        { id: 'ask-city', kind: 'collect', collect: ['city'] },
        { id: 'quote', kind: 'prompt', prompt: 'Quote a price', tools: stepTools },
        { id: 'bye', kind: 'say', say: 'Thanks!' },
      ],
    },
  ],
});

beforeAll(async () => {
  db = openDb();
  world = await tenantWithUsers(db, ['owner', 'viewer'] as const);
  owner = world.tokens.owner;
});
afterAll(() => db.$disconnect());

async function createAgent(name: string, config?: unknown) {
  const res = await adminSend(owner, 'POST', '/v1/admin/agents', { name, ...(config !== undefined && { config }) });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; config: unknown; publishedVersion: number | null; tenantId: string };
}

describe('agents CRUD', () => {
  it('creates, lists with sort/range/filter and Content-Range, updates and deletes', async () => {
    const prefix = unique('ag');
    const a = await createAgent(`${prefix} alpha`);
    const b = await createAgent(`${prefix} beta`, validConfig([], []));
    expect(a).toMatchObject({ tenantId: world.tenant.id, publishedVersion: null, config: { provider: { kind: 'scripted' }, flows: [] } });

    const list = await adminGet(owner, '/v1/admin/agents', { sort: ['name', 'DESC'], range: [0, 0], filter: { q: prefix } });
    expect(list.status).toBe(200);
    expect((list.body as { id: string }[]).map((r) => r.id)).toEqual([b.id]);
    expect(list.headers.get('content-range')).toBe('agents 0-0/2');

    const updated = await adminSend(owner, 'PUT', `/v1/admin/agents/${a.id}`, { ...a, name: `${prefix} gamma` });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: a.id, name: `${prefix} gamma` });

    const removed = await adminSend(owner, 'DELETE', `/v1/admin/agents/${a.id}`);
    expect(removed.status).toBe(200);
    expect((await adminGet(owner, `/v1/admin/agents/${a.id}`)).status).toBe(404);
    const audit = await db.auditLog.findMany({ where: { entityId: a.id }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((r) => r.action)).toEqual(['agent.create', 'agent.update', 'agent.delete']);
  });

  it('refuses a config that is not an AgentConfig with 400 validation-failed naming the path', async () => {
    const res = await adminSend(owner, 'POST', '/v1/admin/agents', { name: 'bad', config: { provider: { kind: 'nope', model: 'x' }, fields: {}, flows: [], tools: [] } });
    expect(res.status).toBe(400);
    expect(errorOf(res.body).code).toBe('validation-failed');
    expect(JSON.stringify(errorOf(res.body).details)).toContain('config.provider.kind');
  });

  it('refuses a credentialId that is not one of the tenant', async () => {
    const config = { ...validConfig([], []), provider: { kind: 'openai', model: 'gpt-4o-mini', credentialId: '3f1b7a52-9c1e-4d7a-8a47-0d6f3f1b7a52' } };
    const res = await adminSend(owner, 'POST', '/v1/admin/agents', { name: 'cred', config });
    expect(res.status).toBe(422);
    expect(errorOf(res.body)).toMatchObject({ code: 'unknown-credential', details: { path: ['config', 'provider', 'credentialId'] } });
  });

  it('answers 409 agent-in-use when deleting an agent a channel uses', async () => {
    const res = await adminSend(owner, 'DELETE', `/v1/admin/agents/${world.agent.id}`);
    expect(res.status).toBe(409);
    expect(errorOf(res.body).code).toBe('agent-in-use');
  });

  it('lets a viewer read but not write', async () => {
    expect((await adminGet(world.tokens.viewer, '/v1/admin/agents')).status).toBe(200);
    expect((await adminSend(world.tokens.viewer, 'POST', '/v1/admin/agents', { name: 'x' })).status).toBe(403);
  });
});

describe('publishing an agent', () => {
  it('answers 422 with the engine message and JSON path for an unknown tool in a step, and publishes nothing', async () => {
    const agent = await createAgent(unique('pub'), validConfig([], ['no-such-tool']));
    const res = await adminSend(owner, 'POST', `/v1/admin/agents/${agent.id}/publish`);
    expect(res.status).toBe(422);
    const error = errorOf(res.body);
    expect(error.code).toBe('flow-configuration');
    // A sentence for people; the class name stays in details.
    expect(error.message).toMatch(/^Flow "booking", step "quote": .*"no-such-tool"/);
    expect(error.details).toMatchObject({ error: 'FlowConfigurationError' });
    expect(error.details).toMatchObject({ path: ['flows', 0, 'steps', 1, 'tools', 0], pointer: '/flows/0/steps/1/tools/0', engineCode: 'unknown-tool' });
    // The dry run answers the same, for a viewer too, and also writes nothing.
    const dry = await adminSend(world.tokens.viewer, 'POST', `/v1/admin/agents/${agent.id}/validate`);
    expect(dry.status).toBe(422);
    expect(errorOf(dry.body)).toEqual(error);
    expect(await db.agentVersion.count({ where: { agentId: agent.id } })).toBe(0);
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).publishedVersion).toBeNull();
  });

  it('answers 422 for an allow-listed tool that no registered or HTTP tool provides', async () => {
    const agent = await createAgent(unique('pub'), validConfig(['ghost-tool'], []));
    const res = await adminSend(owner, 'POST', `/v1/admin/agents/${agent.id}/publish`);
    expect(res.status).toBe(422);
    expect(errorOf(res.body)).toMatchObject({ code: 'agent-not-loadable', details: { reason: 'unknown-tool', path: ['tools', 0] } });
    expect(errorOf(res.body).message).toContain('“ghost-tool” does not exist');
  });

  it('publishes a valid draft as version N+1, lists versions and diffs them', async () => {
    const toolId = unique('lookup');
    await db.toolDefinition.create({ data: { tenantId: world.tenant.id, toolId, url: 'https://example.test/lookup' } });
    const agent = await createAgent(unique('pub'), validConfig([toolId], [toolId]));
    const dry = await adminSend(owner, 'POST', `/v1/admin/agents/${agent.id}/validate`);
    expect(dry.body).toEqual({ agentId: agent.id, warnings: [] });
    expect(await db.agentVersion.count({ where: { agentId: agent.id } })).toBe(0);
    const first = await adminSend(owner, 'POST', `/v1/admin/agents/${agent.id}/publish`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ agentId: agent.id, version: 1 });

    const edited = validConfig([toolId], []);
    expect((await adminSend(owner, 'PUT', `/v1/admin/agents/${agent.id}`, { config: edited })).status).toBe(200);
    const second = await adminSend(owner, 'POST', `/v1/admin/agents/${agent.id}/publish`);
    expect(second.body).toMatchObject({ version: 2 });
    const row = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect(row.publishedVersion).toBe(2);
    const v2 = await db.agentVersion.findFirstOrThrow({ where: { agentId: agent.id, version: 2 } });
    expect(v2.publishedById).toBe(world.users.owner.id);

    const versions = await adminGet(owner, `/v1/admin/agents/${agent.id}/versions`);
    expect((versions.body as { version: number }[]).map((v) => v.version)).toEqual([2, 1]);
    expect(versions.headers.get('content-range')).toBe('agent-versions 0-1/2');

    const diff = await adminGet(owner, `/v1/admin/agents/${agent.id}/diff`, { from: '1', to: '2' });
    expect(diff.status).toBe(200);
    expect(diff.body).toEqual({ from: 1, to: 2, changes: [{ path: '/flows/0/steps/1/tools/0', before: toolId }] });
    expect((await db.auditLog.count({ where: { entityId: agent.id, action: 'agent.publish' } }))).toBe(2);
  });

  it('serves the FlowSpec JSON Schema with the agent fields and tools as enums', async () => {
    const agent = await createAgent(unique('schema'), validConfig([], []));
    const res = await adminGet(owner, '/v1/admin/flow-schema', { agentId: agent.id });
    expect(res.status).toBe(200);
    const schema = res.body as { title: string; definitions: { fieldSlug: { enum: string[] } } };
    expect(schema.title).toBe('FlowSpec');
    expect(schema.definitions.fieldSlug.enum).toEqual(['city', 'guests']);
  });
});

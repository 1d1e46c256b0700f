import type { PrismaClient } from '@switchboard/db';
import { adminSend, errorOf, openDb, tenantWithUsers, unique } from './support/admin-fixtures';

// Publishing refuses what the worker would refuse to call (checkProviderEndpoint): a custom
// base URL for openai/gemini without the tenant's own credential (the platform key only goes to
// the official endpoint), and base URLs the outbound guard forbids. The test API allow-lists
// 127.0.0.1 only (test/support/global-setup.ts).

jest.setTimeout(60_000);

let db: PrismaClient;
let owner: string;
let viewer: string;

beforeAll(async () => {
  db = openDb();
  const world = await tenantWithUsers(db, ['owner', 'viewer'] as const);
  owner = world.tokens.owner;
  viewer = world.tokens.viewer;
});
afterAll(() => db.$disconnect());

const config = (provider: Record<string, unknown>) => ({ provider, fields: {}, flows: [], tools: [] });

async function publish(provider: Record<string, unknown>) {
  const created = await adminSend(owner, 'POST', '/v1/admin/agents', { name: unique('endpoint'), config: config(provider) });
  expect(created.status).toBe(201);
  const id = (created.body as { id: string }).id;
  const res = await adminSend(owner, 'POST', `/v1/admin/agents/${id}/publish`);
  return { id, res };
}

describe('publishing an agent whose provider has a base URL', () => {
  it.each(['openai', 'gemini'])('refuses a custom base URL for %s without a tenant credential: 422 at provider.baseURL, nothing published', async (kind) => {
    const { id, res } = await publish({ kind, model: 'm', baseURL: 'http://127.0.0.1:9/v1' });
    expect(res.status).toBe(422);
    const error = errorOf(res.body);
    expect(error).toMatchObject({ code: 'provider-base-url-needs-credential', details: { path: ['provider', 'baseURL'] } });
    expect(error.message).toContain("the platform's own key is only sent to the official endpoint");
    const dry = await adminSend(viewer, 'POST', `/v1/admin/agents/${id}/validate`);
    expect([dry.status, errorOf(dry.body)]).toEqual([422, error]);
    expect(await db.agentVersion.count({ where: { agentId: id } })).toBe(0);
  });

  it.each([
    ['the metadata address', 'http://169.254.169.254/v1'],
    ['a private address', 'http://10.1.2.3:8000/v1'],
    ['a loopback name that is not allow-listed', 'http://localhost:11434/v1'],
    ['a loopback address that is not allow-listed', 'http://127.0.0.2:11434/v1'],
  ])('refuses %s: 422 provider-address-forbidden', async (_what, baseURL) => {
    const { id, res } = await publish({ kind: 'openai-compatible', model: 'local', baseURL });
    expect(res.status).toBe(422);
    expect(errorOf(res.body)).toMatchObject({ code: 'provider-address-forbidden', details: { path: ['provider', 'baseURL'] } });
    expect(await db.agentVersion.count({ where: { agentId: id } })).toBe(0);
  });

  it('publishes the official endpoint with the platform key, an allow-listed host, and a custom base URL with the tenant key', async () => {
    const official = await publish({ kind: 'openai', model: 'gpt-4o-mini', baseURL: 'https://api.openai.com/v1' });
    expect([official.res.status, errorOf(official.res.body)]).toEqual([200, undefined]);
    expect((await publish({ kind: 'openai-compatible', model: 'local', baseURL: 'http://127.0.0.1:11434/v1' })).res.status).toBe(200);
    const cred = await adminSend(owner, 'POST', '/v1/admin/provider-credentials', { name: unique('gw'), kind: 'openai', secret: 'sk-tenant-gateway-key-0001' });
    expect(cred.status).toBe(201);
    const withKey = await publish({ kind: 'openai', model: 'gpt-4o-mini', baseURL: 'http://127.0.0.1:8080/v1', credentialId: (cred.body as { id: string }).id });
    expect(withKey.res.status).toBe(200);
  });
});

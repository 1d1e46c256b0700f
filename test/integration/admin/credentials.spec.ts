import { decryptSecret, parseMasterKey, type PrismaClient } from '@switchboard/db';
import { DEV_MASTER_KEY } from '@switchboard/config';
import { adminGet, adminSend, errorOf, openDb, tenantWithUsers, unique } from './support/admin-fixtures';
import { apiLog } from './support/api-log';

jest.setTimeout(60_000);

let db: PrismaClient;
let world: Awaited<ReturnType<typeof tenantWithUsers<'admin'>>>;
let token: string;

beforeAll(async () => {
  db = openDb();
  world = await tenantWithUsers(db, ['admin'] as const);
  token = world.tokens.admin;
});
afterAll(() => db.$disconnect());

describe('provider credentials', () => {
  it('stores the secret encrypted, shows only its last 4 characters, and never answers or logs it', async () => {
    const secret = `sk-${unique('live')}-ABCD`;
    const created = await adminSend(token, 'POST', '/v1/admin/provider-credentials', { name: unique('openai'), kind: 'openai', secret });
    expect(created.status).toBe(201);
    const cred = created.body as { id: string; kind: string; secretLast4: string };
    expect(cred).toMatchObject({ kind: 'openai', secretLast4: 'ABCD' });

    const row = await db.providerCredential.findUniqueOrThrow({ where: { id: cred.id } });
    expect(row.secretEncrypted).not.toContain(secret);
    // The test API runs on the development master key (NODE_ENV=test).
    expect(decryptSecret(row.secretEncrypted, parseMasterKey(DEV_MASTER_KEY), `provider-credential:${world.tenant.id}`)).toBe(secret);

    const list = await adminGet(token, '/v1/admin/provider-credentials', { filter: { kind: 'openai' } });
    expect(list.headers.get('content-range')).toBe('provider-credentials 0-0/1');
    const one = await adminGet(token, `/v1/admin/provider-credentials/${cred.id}`);
    const rotated = await adminSend(token, 'PUT', `/v1/admin/provider-credentials/${cred.id}`, { ...(one.body as object), secret: 'sk-new-secret-WXYZ' });
    expect(rotated.body).toMatchObject({ secretLast4: 'WXYZ' });

    const audit = await db.auditLog.findMany({ where: { entityId: cred.id } });
    const seen = [created.text, JSON.stringify(list.body), JSON.stringify(one.body), rotated.text, JSON.stringify(audit), apiLog()].join('\n');
    expect(seen).not.toContain(secret);
    expect(seen).not.toContain('sk-new-secret-WXYZ');
  });

  it('lets an agent use a credential of its tenant and refuses deleting it while used', async () => {
    const cred = (await adminSend(token, 'POST', '/v1/admin/provider-credentials', { name: unique('gem'), kind: 'gemini', secret: 'gemini-secret-1234' })).body as { id: string };
    const config = { provider: { kind: 'gemini', model: 'gemini-2.5-flash', credentialId: cred.id }, fields: {}, flows: [], tools: [] };
    const agent = await adminSend(token, 'POST', '/v1/admin/agents', { name: unique('a'), config });
    expect(agent.status).toBe(201);
    const del = await adminSend(token, 'DELETE', `/v1/admin/provider-credentials/${cred.id}`);
    expect(del.status).toBe(409);
    expect(errorOf(del.body).code).toBe('credential-in-use');
    await adminSend(token, 'DELETE', `/v1/admin/agents/${(agent.body as { id: string }).id}`);
    expect((await adminSend(token, 'DELETE', `/v1/admin/provider-credentials/${cred.id}`)).status).toBe(200);
  });

  it('refuses a duplicate name with 409 and an unknown kind with 400', async () => {
    const name = unique('dup');
    await adminSend(token, 'POST', '/v1/admin/provider-credentials', { name, kind: 'openai', secret: 'x'.repeat(20) });
    const dup = await adminSend(token, 'POST', '/v1/admin/provider-credentials', { name, kind: 'openai', secret: 'x'.repeat(20) });
    expect(dup.status).toBe(409);
    expect(errorOf(dup.body).code).toBe('already-exists');
    const bad = await adminSend(token, 'POST', '/v1/admin/provider-credentials', { name: unique('k'), kind: 'anthropic', secret: 'x' });
    expect(bad.status).toBe(400);
  });
});

import { hashApiKey, type PrismaClient } from '@switchboard/db';
import { adminGet, adminSend, apiUrl, errorOf, openDb, tenantWithUsers, unique } from './support/admin-fixtures';
import { apiLog } from './support/api-log';

jest.setTimeout(60_000);

let db: PrismaClient;
let world: Awaited<ReturnType<typeof tenantWithUsers<'owner' | 'operator'>>>;
let owner: string;

beforeAll(async () => {
  db = openDb();
  world = await tenantWithUsers(db, ['owner', 'operator'] as const);
  owner = world.tokens.owner;
});
afterAll(() => db.$disconnect());

type Channel = { id: string; name: string; agentId: string; webhookUrl: string | null; hasWebhookSecret: boolean; webhookSecret?: string };

describe('channels', () => {
  it('creates with a one-time signing secret, lists, updates, rotates and deletes', async () => {
    const prefix = unique('ch');
    const created = await adminSend(owner, 'POST', '/v1/admin/channels', { agentId: world.agent.id, name: `${prefix} web`, webhookUrl: 'https://hooks.example.test/in' });
    expect(created.status).toBe(201);
    const channel = created.body as Channel;
    expect(channel).toMatchObject({ agentId: world.agent.id, webhookUrl: 'https://hooks.example.test/in', hasWebhookSecret: true });
    expect(channel.webhookSecret).toMatch(/^whsec_/);
    const stored = await db.channel.findUniqueOrThrow({ where: { id: channel.id } });
    expect(stored.webhookSecretEncrypted).not.toContain(channel.webhookSecret!.slice(6));

    await adminSend(owner, 'POST', '/v1/admin/channels', { agentId: world.agent.id, name: `${prefix} sms` });
    const list = await adminGet(owner, '/v1/admin/channels', { filter: { q: prefix }, sort: ['name', 'ASC'], range: [0, 9] });
    expect((list.body as Channel[]).map((c) => c.name)).toEqual([`${prefix} sms`, `${prefix} web`]);
    expect(list.headers.get('content-range')).toBe('channels 0-1/2');
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    const one = await adminGet(owner, `/v1/admin/channels/${channel.id}`);
    expect(one.body).not.toHaveProperty('webhookSecret');
    expect(one.body).not.toHaveProperty('webhookSecretEncrypted');

    const updated = await adminSend(owner, 'PUT', `/v1/admin/channels/${channel.id}`, { ...one.body as object, name: `${prefix} web2`, webhookUrl: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: `${prefix} web2`, webhookUrl: null });

    const rotated = await adminSend(owner, 'POST', `/v1/admin/channels/${channel.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = (rotated.body as { webhookSecret: string }).webhookSecret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(channel.webhookSecret);

    expect((await adminSend(owner, 'DELETE', `/v1/admin/channels/${channel.id}`)).status).toBe(200);
    expect((await adminGet(owner, `/v1/admin/channels/${channel.id}`)).status).toBe(404);

    const audit = await db.auditLog.findMany({ where: { entityId: channel.id }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['channel.create', 'channel.update', 'channel.rotate-secret', 'channel.delete']);
    const everything = JSON.stringify(audit) + apiLog();
    expect(everything).not.toContain(channel.webhookSecret!);
    expect(everything).not.toContain(newSecret);
  });

  it('keeps the replaced secret signing for the grace period a rotation sets (default 24 h, 0 = none)', async () => {
    const created = await adminSend(owner, 'POST', '/v1/admin/channels', { agentId: world.agent.id, name: unique('rot'), webhookUrl: 'https://hooks.example.test/in' });
    const channel = created.body as Channel;
    // A Standard Webhooks secret: whsec_ and 32 bytes of standard base64.
    expect(channel.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const first = await db.channel.findUniqueOrThrow({ where: { id: channel.id } });

    const before = Date.now();
    const byDefault = await adminSend(owner, 'POST', `/v1/admin/channels/${channel.id}/rotate-secret`);
    expect(byDefault.status).toBe(200);
    const answer = byDefault.body as { webhookSecret: string; webhookSecretPreviousExpiresAt: string };
    const expiresAt = Date.parse(answer.webhookSecretPreviousExpiresAt);
    expect(expiresAt - before).toBeGreaterThanOrEqual(86_400_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(86_400_000);
    const second = await db.channel.findUniqueOrThrow({ where: { id: channel.id } });
    expect(second.webhookSecretPreviousEncrypted).toBe(first.webhookSecretEncrypted);
    expect((await adminGet(owner, `/v1/admin/channels/${channel.id}`)).body).toMatchObject({ webhookSecretPreviousExpiresAt: answer.webhookSecretPreviousExpiresAt });

    const oneHour = await adminSend(owner, 'POST', `/v1/admin/channels/${channel.id}/rotate-secret`, { graceSeconds: 3600 });
    expect(Date.parse((oneHour.body as { webhookSecretPreviousExpiresAt: string }).webhookSecretPreviousExpiresAt) - Date.now()).toBeLessThanOrEqual(3_600_000);
    // One previous secret at a time: the one just replaced, not the first.
    expect((await db.channel.findUniqueOrThrow({ where: { id: channel.id } })).webhookSecretPreviousEncrypted).toBe(second.webhookSecretEncrypted);

    const none = await adminSend(owner, 'POST', `/v1/admin/channels/${channel.id}/rotate-secret`, { graceSeconds: 0 });
    expect(none.body).toMatchObject({ webhookSecretPreviousExpiresAt: null });
    expect(await db.channel.findUniqueOrThrow({ where: { id: channel.id } })).toMatchObject({ webhookSecretPreviousEncrypted: null, webhookSecretPreviousExpiresAt: null });
    expect((await adminGet(owner, `/v1/admin/channels/${channel.id}`)).body).toMatchObject({ webhookSecretPreviousExpiresAt: null });

    const stored = await db.channel.findUniqueOrThrow({ where: { id: channel.id } });
    for (const bad of [{ graceSeconds: -1 }, { graceSeconds: 604_801 }, { graceSeconds: 1.5 }, { graceSeconds: '3600' }, { grace: 10 }, [], null]) {
      const res = await adminSend(owner, 'POST', `/v1/admin/channels/${channel.id}/rotate-secret`, bad);
      expect([JSON.stringify(bad), res.status, errorOf(res.body).code]).toEqual([JSON.stringify(bad), 400, 'validation-failed']);
    }
    expect(await db.channel.findUniqueOrThrow({ where: { id: channel.id } })).toEqual(stored);
    const audit = await db.auditLog.findMany({ where: { entityId: channel.id, action: 'channel.rotate-secret' }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => (a.after as { graceSeconds: number }).graceSeconds)).toEqual([86_400, 3600, 0]);
  });

  it('answers 409 channel-has-no-webhook to a test delivery of a channel without a webhook URL', async () => {
    const created = await adminSend(owner, 'POST', '/v1/admin/channels', { agentId: world.agent.id, name: unique('nohook') });
    const res = await adminSend(owner, 'POST', `/v1/admin/channels/${(created.body as Channel).id}/test-delivery`);
    expect([res.status, errorOf(res.body).code]).toEqual([409, 'channel-has-no-webhook']);
    const foreign = await adminSend(owner, 'POST', '/v1/admin/channels/3f1b7a52-9c1e-4d7a-8a47-0d6f3f1b7a52/test-delivery');
    expect([foreign.status, errorOf(foreign.body).code]).toEqual([404, 'not-found']);
  });

  it('refuses an agent of no tenant of the user, a bad URL and unknown keys', async () => {
    const unknownAgent = await adminSend(owner, 'POST', '/v1/admin/channels', { agentId: '3f1b7a52-9c1e-4d7a-8a47-0d6f3f1b7a52', name: 'x' });
    expect(unknownAgent.status).toBe(422);
    expect(errorOf(unknownAgent.body)).toMatchObject({ code: 'unknown-agent', details: { path: ['agentId'] } });
    const badUrl = await adminSend(owner, 'POST', '/v1/admin/channels', { agentId: world.agent.id, name: 'x', webhookUrl: 'ftp://nope' });
    expect(badUrl.status).toBe(400);
    expect(errorOf(badUrl.body).code).toBe('validation-failed');
    const extra = await adminSend(owner, 'POST', '/v1/admin/channels', { agentId: world.agent.id, name: 'x', colour: 'red' });
    expect(errorOf(extra.body).code).toBe('validation-failed');
  });
});

describe('API keys', () => {
  it('shows the key once, stores only its hash, lists prefixes, and revokes it so ingest refuses it', async () => {
    const created = await adminSend(owner, 'POST', '/v1/admin/api-keys', { channelId: world.channel.id, name: 'website' });
    expect(created.status).toBe(201);
    const { id, key, prefix } = created.body as { id: string; key: string; prefix: string };
    expect(key.startsWith(prefix)).toBe(true);
    const row = await db.apiKey.findUniqueOrThrow({ where: { id } });
    expect(row.keyHash).toBe(hashApiKey(key));

    const list = await adminGet(owner, '/v1/admin/api-keys', { filter: { channelId: world.channel.id, revoked: false } });
    expect(list.status).toBe(200);
    expect(list.headers.get('content-range')).toMatch(/^api-keys 0-0\/1$/);
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(JSON.stringify(list.body)).not.toContain(row.keyHash);

    const post = () =>
      fetch(apiUrl('/v1/messages'), {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ session: unique('s'), text: 'hello' }),
      });
    expect((await post()).status).toBe(202);

    const revoked = await adminSend(owner, 'DELETE', `/v1/admin/api-keys/${id}`);
    expect(revoked.status).toBe(200);
    expect((revoked.body as { revokedAt: string | null }).revokedAt).not.toBeNull();
    expect((await post()).status).toBe(401);
    expect(apiLog()).not.toContain(key);
  });

  it('lets an operator list keys but not create them', async () => {
    expect((await adminGet(world.tokens.operator, '/v1/admin/api-keys')).status).toBe(200);
    const res = await adminSend(world.tokens.operator, 'POST', '/v1/admin/api-keys', { channelId: world.channel.id });
    expect(res.status).toBe(403);
  });
});

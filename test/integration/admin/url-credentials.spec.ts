import type { PrismaClient } from '@switchboard/db';
import { adminGet, adminSend, errorOf, openDb, tenantWithUsers, unique } from './support/admin-fixtures';

// A URL with user:pass@ is refused when a webhook, an HTTP tool or a provider credential is
// saved (the answer says where the credential belongs instead), and one stored before that
// rule is masked (https://***@host/) in every answer and in the audit log.

jest.setTimeout(60_000);

let db: PrismaClient;
let world: Awaited<ReturnType<typeof tenantWithUsers<'owner' | 'viewer'>>>;

beforeAll(async () => {
  db = openDb();
  world = await tenantWithUsers(db, ['owner', 'viewer'] as const);
});
afterAll(() => db.$disconnect());

const PASSWORD = 'hunter2-url-password';
const withUserinfo = (host: string) => `https://hookuser:${PASSWORD}@${host}/in?x=1`;

describe('URLs with credentials', () => {
  it('are refused at save with 422 url-credentials-not-allowed naming the field and where the credential goes', async () => {
    const owner = world.tokens.owner;
    const channel = await adminSend(owner, 'POST', '/v1/admin/channels', { agentId: world.agent.id, name: unique('ch'), webhookUrl: withUserinfo('hooks.example.test') });
    expect(channel.status).toBe(422);
    expect(errorOf(channel.body)).toMatchObject({ code: 'url-credentials-not-allowed', details: [{ location: 'body', path: 'webhookUrl', issue: 'url-credentials-not-allowed' }] });
    expect(errorOf(channel.body).message).toContain('signing secret');

    const put = await adminSend(owner, 'PUT', `/v1/admin/channels/${world.channel.id}`, { webhookUrl: 'https://only-user@hooks.example.test/in' });
    expect([put.status, errorOf(put.body).code]).toEqual([422, 'url-credentials-not-allowed']);

    const tool = await adminSend(owner, 'POST', '/v1/admin/http-tools', { toolId: unique('t').replace(/-/g, '_'), url: withUserinfo('api.example.test') });
    expect(tool.status).toBe(422);
    expect(errorOf(tool.body)).toMatchObject({ code: 'url-credentials-not-allowed', details: [{ path: 'url' }] });
    expect(errorOf(tool.body).message).toContain('secret header');

    const cred = await adminSend(owner, 'POST', '/v1/admin/provider-credentials', { name: unique('c'), kind: 'openai-compatible', baseURL: withUserinfo('llm.example.test'), secret: 'sk-some-key-0001' });
    expect([cred.status, errorOf(cred.body).code]).toEqual([422, 'url-credentials-not-allowed']);

    for (const res of [channel, put, tool, cred]) expect(res.text).not.toContain(PASSWORD);
    expect(await db.channel.count({ where: { tenantId: world.tenant.id, webhookUrl: { contains: PASSWORD } } })).toBe(0);
    expect(await db.toolDefinition.count({ where: { tenantId: world.tenant.id } })).toBe(0);
  });

  it('stored before the rule, are masked in every answer and in the audit log', async () => {
    const tenantId = world.tenant.id;
    const legacyChannel = await db.channel.create({ data: { tenantId, agentId: world.agent.id, name: unique('legacy'), webhookUrl: withUserinfo('hooks.example.test') } });
    const legacyTool = await db.toolDefinition.create({ data: { tenantId, toolId: unique('legacy').replace(/-/g, '_'), url: withUserinfo('api.example.test') } });
    // An audit entry written before the audit log masked URLs.
    await db.auditLog.create({
      data: { tenantId, actorType: 'user', action: 'channel.update', entityType: 'channel', entityId: legacyChannel.id, after: { webhookUrl: withUserinfo('hooks.example.test') } },
    });
    // Editing the name only: the audit entry of that edit has the URL before and after, masked.
    const renamed = await adminSend(world.tokens.owner, 'PUT', `/v1/admin/channels/${legacyChannel.id}`, { name: unique('renamed') });
    expect(renamed.status).toBe(200);

    const seen: string[] = [renamed.text];
    for (const token of [world.tokens.owner, world.tokens.viewer]) {
      for (const path of ['/v1/admin/channels', `/v1/admin/channels/${legacyChannel.id}`, '/v1/admin/http-tools', `/v1/admin/http-tools/${legacyTool.id}`, '/v1/admin/tools', '/v1/admin/audit-log']) {
        const res = await adminGet(token, path, path.split('/')[4] ? {} : { range: [0, 99] });
        if (!(path === '/v1/admin/audit-log' && token === world.tokens.viewer)) expect({ path, status: res.status }).toEqual({ path, status: 200 });
        seen.push(JSON.stringify(res.body));
      }
    }
    const everything = seen.join('\n');
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain('hookuser');
    expect(everything).toContain('https://***@hooks.example.test/in?x=1');
    expect(everything).toContain('https://***@api.example.test/in?x=1');
    const audit = (await adminGet(world.tokens.owner, '/v1/admin/audit-log', { range: [0, 99] })).body as { action: string; before: unknown; after: unknown }[];
    expect(audit.filter((a) => JSON.stringify(a).includes('***@hooks.example.test')).length).toBeGreaterThanOrEqual(2);
  });
});

import type { PrismaClient } from '@switchboard/db';
import { adminGet, adminSend, errorOf, openDb, tenantWithUsers, unique } from './support/admin-fixtures';
import { apiLog } from './support/api-log';

jest.setTimeout(60_000);

let db: PrismaClient;
let world: Awaited<ReturnType<typeof tenantWithUsers<'owner'>>>;
let owner: string;
let codeToolId: string;

beforeAll(async () => {
  db = openDb();
  world = await tenantWithUsers(db, ['owner'] as const);
  owner = world.tokens.owner;
  // What the worker's start-up sync writes for a code tool.
  codeToolId = unique('code_tool').replace(/-/g, '_');
  await db.registeredTool.create({ data: { toolId: codeToolId, description: 'A code tool', parameters: { type: 'object', properties: {} }, readOnly: true } });
});
afterAll(async () => {
  await db.registeredTool.deleteMany({ where: { toolId: codeToolId } });
  await db.$disconnect();
});

const httpTool = (toolId: string) => ({
  toolId,
  description: 'Looks up a booking',
  url: 'https://api.example.test/bookings',
  method: 'GET',
  parameters: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] },
  headers: { 'X-Plain': 'visible' },
  secretHeaders: { Authorization: 'Bearer tool-secret-value-123' },
  timeoutMs: 5000,
  readOnly: true,
});

describe('tools', () => {
  it('creates an HTTP tool with write-only secret headers, lists it beside code tools with the agents that use it', async () => {
    const toolId = unique('lookup');
    const created = await adminSend(owner, 'POST', '/v1/admin/http-tools', httpTool(toolId));
    expect(created.status).toBe(201);
    const tool = created.body as { id: string; secretHeaderNames: string[]; headers: object };
    expect(tool).toMatchObject({ kind: 'http', toolId, method: 'GET', timeoutMs: 5000, headers: { 'X-Plain': 'visible' }, secretHeaderNames: ['Authorization'] });
    const row = await db.toolDefinition.findUniqueOrThrow({ where: { id: tool.id } });
    expect(row.secretHeadersEncrypted).not.toContain('tool-secret-value-123');

    const config = { provider: { kind: 'scripted', model: 'scripted' }, fields: {}, flows: [], tools: [toolId, codeToolId] };
    const agent = (await adminSend(owner, 'POST', '/v1/admin/agents', { name: unique('agent'), config })).body as { id: string; name: string };

    const list = await adminGet(owner, '/v1/admin/tools', { sort: ['kind', 'ASC'], range: [0, 99] });
    expect(list.status).toBe(200);
    const tools = list.body as { toolId: string; kind: string; usedBy: { id: string }[] }[];
    const code = tools.find((t) => t.toolId === codeToolId);
    const http = tools.find((t) => t.toolId === toolId);
    expect(code).toMatchObject({ kind: 'code', tenantId: null, readOnly: true, usedBy: [{ id: agent.id, name: agent.name }] });
    expect(http).toMatchObject({ kind: 'http', usedBy: [{ id: agent.id }] });
    expect(list.headers.get('content-range')).toMatch(/^tools 0-\d+\/\d+$/);
    const httpOnly = await adminGet(owner, '/v1/admin/tools', { filter: { kind: 'http' } });
    expect((httpOnly.body as { toolId: string }[]).map((t) => t.toolId)).toEqual([toolId]);

    const del = await adminSend(owner, 'DELETE', `/v1/admin/http-tools/${tool.id}`);
    expect(del.status).toBe(409);
    expect(errorOf(del.body).code).toBe('tool-in-use');

    const updated = await adminSend(owner, 'PUT', `/v1/admin/http-tools/${tool.id}`, { ...tool, timeoutMs: 2000, secretHeaders: { 'X-Api-Key': 'other-secret-456' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ timeoutMs: 2000, secretHeaderNames: ['X-Api-Key'] });

    const all = [created.text, JSON.stringify(list.body), updated.text, JSON.stringify(await db.auditLog.findMany({ where: { entityId: tool.id } })), apiLog()].join('\n');
    expect(all).not.toContain('tool-secret-value-123');
    expect(all).not.toContain('other-secret-456');

    await adminSend(owner, 'DELETE', `/v1/admin/agents/${agent.id}`);
    expect((await adminSend(owner, 'DELETE', `/v1/admin/http-tools/${tool.id}`)).status).toBe(200);
  });

  it('refuses parameters that are not a JSON Schema object, a bad id, and a duplicate id', async () => {
    const shorthand = await adminSend(owner, 'POST', '/v1/admin/http-tools', { ...httpTool(unique('t')), parameters: { ref: { type: 'string' } } });
    expect(shorthand.status).toBe(400);
    expect(JSON.stringify(errorOf(shorthand.body).details)).toContain('JSON Schema object');
    const invalid = await adminSend(owner, 'POST', '/v1/admin/http-tools', { ...httpTool(unique('t')), parameters: { type: 'object', properties: 5 } });
    expect(invalid.status).toBe(400);
    const badId = await adminSend(owner, 'POST', '/v1/admin/http-tools', httpTool('has space'));
    expect(badId.status).toBe(400);
    const id = unique('dup');
    expect((await adminSend(owner, 'POST', '/v1/admin/http-tools', httpTool(id))).status).toBe(201);
    const dup = await adminSend(owner, 'POST', '/v1/admin/http-tools', httpTool(id));
    expect(dup.status).toBe(409);
    const clash = await adminSend(owner, 'POST', '/v1/admin/http-tools', httpTool(codeToolId));
    expect(errorOf(clash.body).code).toBe('already-exists');
  });

  it('lists HTTP tools with sort, range and filter', async () => {
    const prefix = unique('ls');
    for (const n of ['a', 'b', 'c']) await adminSend(owner, 'POST', '/v1/admin/http-tools', httpTool(`${prefix}_${n}`));
    const page = await adminGet(owner, '/v1/admin/http-tools', { filter: { q: prefix }, sort: ['toolId', 'DESC'], range: [1, 2] });
    expect((page.body as { toolId: string }[]).map((t) => t.toolId)).toEqual([`${prefix}_b`, `${prefix}_a`]);
    expect(page.headers.get('content-range')).toBe('http-tools 1-2/3');
  });
});

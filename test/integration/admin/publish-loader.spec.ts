import { DEV_MASTER_KEY } from '@switchboard/config';
import { encryptSecret, parseMasterKey, SECRET_CONTEXTS, type PrismaClient } from '@switchboard/db';
import { adminSend, errorOf, openDb, tenantWithUsers, unique } from './support/admin-fixtures';

// Publish runs the worker's own loader (libs/agent-config load-agent.ts): whatever would make
// every turn fail `agent-unavailable` is refused before a version is written, 422 at the JSON path
// of the input, with a sentence a person reads (no class names; those stay in `details`). One case
// per kind of load failure.

jest.setTimeout(60_000);

let db: PrismaClient;
let world: Awaited<ReturnType<typeof tenantWithUsers<'owner'>>>;
let owner: string;
const masterKey = parseMasterKey(process.env.MASTER_KEY ?? DEV_MASTER_KEY);

const base = {
  provider: { kind: 'scripted', model: 'scripted', scripted: { rules: [{ call: 'speak', reply: 'olá' }] } },
  fields: {},
  tools: [] as string[],
  flows: [] as unknown[],
};

beforeAll(async () => {
  db = openDb();
  world = await tenantWithUsers(db, ['owner'] as const);
  owner = world.tokens.owner;
});
afterAll(() => db.$disconnect());

/** An agent whose draft is `config`, stored directly (the save checks would stop some of these first). */
async function agentWith(config: unknown): Promise<string> {
  const res = await adminSend(owner, 'POST', '/v1/admin/agents', { name: unique('load') });
  expect(res.status).toBe(201);
  const id = (res.body as { id: string }).id;
  await db.agent.update({ where: { id }, data: { config: config as object } });
  return id;
}

async function credential(kind: 'openai' | 'gemini' | 'openai_compatible', context = SECRET_CONTEXTS.providerCredential(world.tenant.id)) {
  return db.providerCredential.create({
    data: {
      tenantId: world.tenant.id,
      name: unique(kind),
      kind,
      baseURL: kind === 'openai_compatible' ? 'http://127.0.0.1:9/v1' : null,
      secretEncrypted: encryptSecret('sk-test-1234', masterKey, context),
      secretLast4: '1234',
    },
  });
}

async function refused(agentId: string) {
  const res = await adminSend(owner, 'POST', `/v1/admin/agents/${agentId}/publish`);
  expect(res.status).toBe(422);
  expect(await db.agentVersion.count({ where: { agentId } })).toBe(0);
  const error = errorOf(res.body);
  // A sentence for a person: no class names, no bracketed error tags.
  expect(error.message).not.toMatch(/\[\w+Error\]|Error\b/);
  // Nor the input's JSON path: that is in `details.path`, and the console shows the sentence at the input.
  const path = (error.details as { path?: (string | number)[] } | undefined)?.path ?? [];
  expect(path.length).toBeGreaterThan(0);
  expect(error.message).not.toMatch(/\w\[\d+\]|\$\.|\/\w+\/\d/);
  if (path.length > 1) for (const form of [path.join('.'), path.join('/')]) expect(error.message).not.toContain(form);
  return error;
}

describe('publish refuses what the worker cannot load', () => {
  it('a scripted rule whose regex the ScriptedProvider cannot compile', async () => {
    const id = await agentWith({ ...base, provider: { ...base.provider, scripted: { rules: [{ match: '(?i)preço', reply: 'x' }] } } });
    const error = await refused(id);
    expect(error).toMatchObject({ code: 'agent-not-loadable', details: { reason: 'invalid-script', path: ['provider', 'scripted', 'rules', 0, 'match'] } });
    expect(error.message).toMatch(/Rule 1 of the scripted model has a pattern that is not a valid JavaScript regular expression/);
    expect(error.message).toMatch(/\(\?i\) are not supported/);
  });

  it('a credential of another provider kind (openai on an openai-compatible agent)', async () => {
    const cred = await credential('openai');
    const id = await agentWith({ ...base, provider: { kind: 'openai-compatible', model: 'm', baseURL: 'http://127.0.0.1:9/v1', credentialId: cred.id } });
    const error = await refused(id);
    // checkProviderEndpoint's refusal (the worker's rule for endpoints and keys), with its own code.
    expect(error).toMatchObject({ code: 'provider-credential-kind', details: { path: ['provider', 'credentialId'] } });
  });

  it('a credential that no longer exists', async () => {
    const cred = await credential('openai');
    const id = await agentWith({ ...base, provider: { kind: 'openai', model: 'gpt-4.1-mini', credentialId: cred.id } });
    await db.providerCredential.delete({ where: { id: cred.id } });
    // The save-time reference check answers first, at the same path; the loader refuses the same for the worker.
    expect(await refused(id)).toMatchObject({ code: 'unknown-credential', details: { path: ['provider', 'credentialId'] } });
  });

  it('a credential that does not decrypt (sealed for another tenant)', async () => {
    const cred = await credential('openai', SECRET_CONTEXTS.providerCredential('00000000-0000-4000-8000-000000000000'));
    const id = await agentWith({ ...base, provider: { kind: 'openai', model: 'gpt-4.1-mini', credentialId: cred.id } });
    expect(await refused(id)).toMatchObject({ details: { reason: 'credential-undecryptable', path: ['provider', 'credentialId'], errorCode: 'secret-undecryptable' } });
  });

  it('a provider endpoint the worker would refuse (openai-compatible without a server address)', async () => {
    const id = await agentWith({ ...base, provider: { kind: 'openai-compatible', model: 'm' } });
    expect(await refused(id)).toMatchObject({ code: 'provider-base-url-invalid', details: { path: ['provider', 'baseURL'] } });
  });

  it('a provider the factory cannot build (a model name of blanks)', async () => {
    const cred = await credential('openai');
    const id = await agentWith({ ...base, provider: { kind: 'openai', model: '   ', credentialId: cred.id } });
    expect(await refused(id)).toMatchObject({ details: { reason: 'provider-configuration', path: ['provider', 'model'], errorCode: 'provider-model-missing' } });
  });

  it('a config the schema refuses', async () => {
    const id = await agentWith({ ...base, maxToolLoops: 99 });
    expect(await refused(id)).toMatchObject({ details: { reason: 'invalid-config', path: ['maxToolLoops'] } });
  });

  it('an allow-listed tool that no worker registered and no HTTP tool provides', async () => {
    const id = await agentWith({ ...base, tools: ['ghost-tool'] });
    const error = await refused(id);
    expect(error).toMatchObject({ details: { reason: 'unknown-tool', path: ['tools', 0] } });
    expect(error.message).toMatch(/The tool “ghost-tool” does not exist/);
  });

  it('a step using a registered tool that is not on the allow-list says so, once, at the step', async () => {
    const toolId = unique('registered').replace(/[^a-z0-9-]/gi, '-');
    await db.registeredTool.create({ data: { toolId, description: 'test tool' } });
    try {
      const id = await agentWith({
        ...base,
        flows: [{ id: 'f', name: 'F', on: [{ message: ['oi'] }], steps: [{ id: 's', kind: 'prompt', prompt: 'p', tools: [toolId] }] }],
      });
      const error = await refused(id);
      expect(error).toMatchObject({ code: 'flow-configuration', details: { path: ['flows', 0, 'steps', 0, 'tools', 0], engineCode: 'unknown-tool' } });
      expect(error.message).toMatch(new RegExp(`uses the tool “${toolId}”, which exists but is not one of this agent’s tools\\. Add “${toolId}” to the agent’s tools`));
      expect(error.message.split(toolId).length - 1).toBe(2);
    } finally {
      await db.registeredTool.delete({ where: { toolId } });
    }
  });

  it('publishes a config the worker loads, with the default fallback message filled in at creation', async () => {
    const res = await adminSend(owner, 'POST', '/v1/admin/agents', { name: unique('ok'), config: { ...base, instructions: 'Você atende clientes de um hotel. Pergunte a cidade.' } });
    expect(res.status).toBe(201);
    const agent = res.body as { id: string; config: { fallbackMessage?: string } };
    expect(agent.config.fallbackMessage).toBe('Desculpe, não consigo responder agora. Tente novamente em alguns minutos.');
    const published = await adminSend(owner, 'POST', `/v1/admin/agents/${agent.id}/publish`);
    expect(published.status).toBe(200);
  });
});

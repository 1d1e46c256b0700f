import { Test, type TestingModule } from '@nestjs/testing';
import { DbModule, encryptSecret, parseMasterKey, PrismaService } from '@switchboard/db';
import { AgentLoadError } from '@switchboard/agent-config';
import { ProviderForConfig } from '../../../apps/worker/src/agents/provider-for-config';
import { loadWorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { WorkerEnvModule } from '../../../apps/worker/src/config/worker-env.module';
import { SECRET_CONTEXTS, SecretBox } from '../../../apps/worker/src/secrets/secret-box';
import { startFakeModelServer, type FakeModelServer } from '../../support/fake-model-server';
import { createSessionRows } from './support/rows';

// Agents whose config names a stored provider credential: the worker decrypts the tenant's key
// and the provider sends it; nothing else of the tenant's (or the platform's) reaches the server.

jest.setTimeout(30_000);

describe('provider credentials', () => {
  const env = loadWorkerEnv({ ...process.env, OPENAI_API_KEY: 'sk-platform-key-never-sent' });
  const masterKey = parseMasterKey(env.MASTER_KEY);
  let mod: TestingModule;
  let prisma: PrismaService;
  let server: FakeModelServer;
  let baseURL: string;

  beforeAll(async () => {
    server = await startFakeModelServer('olá');
    baseURL = server.baseURL;
    mod = await Test.createTestingModule({
      imports: [WorkerEnvModule.forRoot(env), DbModule.forRoot({ url: env.DATABASE_URL })],
      providers: [SecretBox, ProviderForConfig],
    }).compile();
    await mod.init();
    prisma = mod.get(PrismaService);
  });

  afterAll(async () => {
    await mod.close();
    await server.close();
  });

  async function credential(tenantId: string, kind: 'openai' | 'gemini' | 'openai_compatible', key: string, context = SECRET_CONTEXTS.providerCredential(tenantId)) {
    return prisma.providerCredential.create({
      data: {
        tenantId,
        name: `${kind}-${Math.random()}`,
        kind,
        baseURL: kind === 'openai_compatible' ? baseURL : null,
        secretEncrypted: encryptSecret(key, masterKey, context),
        secretLast4: key.slice(-4),
      },
    });
  }

  it('calls the model with the tenant key decrypted from its credential, at the credential base URL', async () => {
    const { tenantId } = await createSessionRows(prisma);
    const cred = await credential(tenantId, 'openai_compatible', 'sk-tenant-secret-1234');
    const provider = await mod.get(ProviderForConfig).build(tenantId, { kind: 'openai-compatible', model: 'local-model', credentialId: cred.id });

    const reply = await provider.generate({ call: 'speak', round: 1, system: 'x', history: [{ role: 'user', content: 'oi' }], tools: [] });

    expect(reply.text).toBe('olá');
    expect(server.headers.at(-1)?.authorization).toBe('Bearer sk-tenant-secret-1234');
  });

  it('never sends the platform key to an openai-compatible server without a credential', async () => {
    const { tenantId } = await createSessionRows(prisma);
    const provider = await mod.get(ProviderForConfig).build(tenantId, { kind: 'openai-compatible', model: 'local-model', baseURL });
    await provider.generate({ call: 'speak', round: 1, system: 'x', history: [{ role: 'user', content: 'oi' }], tools: [] });
    expect(server.headers.at(-1)?.authorization).not.toContain('sk-platform-key-never-sent');
  });

  it("refuses another tenant's credential, a credential of another provider, and one sealed for another tenant", async () => {
    const a = await createSessionRows(prisma);
    const b = await createSessionRows(prisma);
    const ofB = await credential(b.tenantId, 'openai', 'sk-b');
    const gemini = await credential(a.tenantId, 'gemini', 'g-a');
    const copied = await credential(a.tenantId, 'openai', 'sk-copied', SECRET_CONTEXTS.providerCredential(b.tenantId));
    const build = (credentialId: string) => mod.get(ProviderForConfig).build(a.tenantId, { kind: 'openai', model: 'gpt-4.1-mini', credentialId });

    await expect(build(ofB.id)).rejects.toThrow(AgentLoadError);
    await expect(build(ofB.id)).rejects.toMatchObject({ code: 'credential-missing', path: ['provider', 'credentialId'] });
    await expect(build(gemini.id)).rejects.toMatchObject({ code: 'credential-kind', message: expect.stringMatching(/is a Gemini key, but this agent uses an OpenAI model/) });
    await expect(build(copied.id)).rejects.toMatchObject({ code: 'credential-undecryptable', cause: expect.objectContaining({ code: 'secret-undecryptable' }) });
    await expect(build('not-a-uuid')).rejects.toMatchObject({ code: 'credential-missing' });
  });
});

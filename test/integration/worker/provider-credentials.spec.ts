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

const OPENAI_CANARY = 'sk-platform-canary-openai-never-sent-0001';
const GEMINI_CANARY = 'AIzaPlatformCanaryGeminiNeverSent000001';

describe('provider credentials', () => {
  // The fake model servers listen on 127.0.0.1, allow-listed as an operator would a local model.
  const env = loadWorkerEnv({ ...process.env, OPENAI_API_KEY: OPENAI_CANARY, GEMINI_API_KEY: GEMINI_CANARY, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
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

  it('sends no key at all to an openai-compatible server without a credential', async () => {
    const { tenantId } = await createSessionRows(prisma);
    const provider = await mod.get(ProviderForConfig).build(tenantId, { kind: 'openai-compatible', model: 'local-model', baseURL });
    await provider.generate({ call: 'speak', round: 1, system: 'x', history: [{ role: 'user', content: 'oi' }], tools: [] });
    expect(server.headers.at(-1)?.authorization).toBeUndefined();
    expect(JSON.stringify(server.headers)).not.toMatch(/canary/i);
  });

  it.each(['openai', 'gemini'] as const)('never sends the platform %s key to a custom base URL: the build is refused before any call', async (kind) => {
    const { tenantId } = await createSessionRows(prisma);
    const before = server.headers.length;
    const build = mod.get(ProviderForConfig).build(tenantId, { kind, model: 'm', baseURL });
    await expect(build).rejects.toMatchObject({ name: 'ProviderEndpointError', code: 'provider-base-url-needs-credential', path: ['provider', 'baseURL'] });
    expect(server.headers.length).toBe(before);
    expect(JSON.stringify(server.headers)).not.toMatch(/canary/i);
  });

  it('calls a custom base URL of openai or gemini only with the tenant key', async () => {
    const { tenantId } = await createSessionRows(prisma);
    const cred = await credential(tenantId, 'openai', 'sk-tenant-own-openai-key-77');
    const provider = await mod.get(ProviderForConfig).build(tenantId, { kind: 'openai', model: 'local-model', baseURL, credentialId: cred.id });
    await provider.generate({ call: 'speak', round: 1, system: 'x', history: [{ role: 'user', content: 'oi' }], tools: [] });
    expect(server.headers.at(-1)?.authorization).toBe('Bearer sk-tenant-own-openai-key-77');
    expect(JSON.stringify(server.headers)).not.toMatch(/canary/i);
  });

  it('refuses loopback base URLs that are not allow-listed, at the connection: the server sees nothing', async () => {
    const strictMod = await Test.createTestingModule({
      imports: [WorkerEnvModule.forRoot({ ...env, OUTBOUND_ALLOWED_HOSTS: [] }), DbModule.forRoot({ url: env.DATABASE_URL })],
      providers: [SecretBox, ProviderForConfig],
    }).compile();
    try {
      const { tenantId } = await createSessionRows(prisma);
      const before = server.headers.length;
      const strict = strictMod.get(ProviderForConfig);
      // An IP literal is refused when the provider is built...
      await expect(strict.build(tenantId, { kind: 'openai-compatible', model: 'local-model', baseURL })).rejects.toMatchObject({ code: 'provider-address-forbidden' });
      // ...a name (here localhost, resolving to loopback) when the socket looks it up, as a permanent `invalid` failure.
      const named = await strict.build(tenantId, { kind: 'openai-compatible', model: 'local-model', baseURL: baseURL.replace('127.0.0.1', 'localhost') });
      const failure = await named.generate({ call: 'speak', round: 1, system: 'x', history: [{ role: 'user', content: 'oi' }], tools: [] }).catch((e: unknown) => e);
      expect(failure).toMatchObject({ name: 'ProviderError', kind: 'invalid', message: expect.stringContaining('not reachable from model providers') });
      expect(server.headers.length).toBe(before);
    } finally {
      await strictMod.close();
    }
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
    await expect(build(gemini.id)).rejects.toMatchObject({ code: 'provider-credential-kind', message: expect.stringContaining("holds a Gemini key, but this agent's provider is OpenAI") });
    await expect(build(copied.id)).rejects.toMatchObject({ code: 'credential-undecryptable', cause: expect.objectContaining({ code: 'secret-undecryptable' }) });
    await expect(build('not-a-uuid')).rejects.toMatchObject({ code: 'credential-missing' });
  });
});

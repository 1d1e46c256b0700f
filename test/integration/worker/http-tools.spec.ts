import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Test, type TestingModule } from '@nestjs/testing';
import type { AnyTool, ToolCtx } from '@falai/agent';
import { DbModule, encryptSecret, parseMasterKey, PrismaService, type Prisma } from '@switchboard/db';
import { loadWorkerEnv, type WorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { WorkerEnvModule } from '../../../apps/worker/src/config/worker-env.module';
import { HttpTools } from '../../../apps/worker/src/http-tools/http-tools';
import { HttpToolsModule } from '../../../apps/worker/src/http-tools/http-tools.module';
import { SECRET_CONTEXTS } from '../../../apps/worker/src/secrets/secret-box';
import type { TurnContext } from '../../../apps/worker/src/tools/agent-tool.decorator';
import { createSessionRows } from './support/rows';

// Tenants' HTTP tools against real local endpoints: what is sent, what the model reads, and
// every address an HTTP tool must never reach.

jest.setTimeout(30_000);

interface Seen {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: string;
}

function ctx(): ToolCtx<TurnContext> {
  return { context: { tenantId: 't', sessionId: 's1', turnId: 'turn', messageId: 'm1' }, data: {}, history: [], now: new Date() };
}

describe('HTTP tools', () => {
  const seen: Seen[] = [];
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {};
  let server: Server;
  let other: Server;
  let base: string;
  let otherBase: string;

  async function listen(s: Server): Promise<string> {
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }
  function handler(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      const route = routes[new URL(req.url!, 'http://x').pathname];
      if (route) route(req, res);
      else {
        res.statusCode = 404;
        res.end('no route');
      }
    });
  }

  async function module(env: WorkerEnv): Promise<{ mod: TestingModule; tools: HttpTools; prisma: PrismaService }> {
    const mod = await Test.createTestingModule({
      imports: [WorkerEnvModule.forRoot(env), DbModule.forRoot({ url: env.DATABASE_URL }), HttpToolsModule],
    }).compile();
    await mod.init();
    return { mod, tools: mod.get(HttpTools), prisma: mod.get(PrismaService) };
  }

  const allowing = loadWorkerEnv({ ...process.env, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', HTTP_TOOL_MAX_RESPONSE_BYTES: '1000000' });
  const strict = loadWorkerEnv({ ...process.env, OUTBOUND_ALLOWED_HOSTS: '' });
  let open: Awaited<ReturnType<typeof module>>;
  let guarded: Awaited<ReturnType<typeof module>>;

  beforeAll(async () => {
    server = createServer(handler);
    other = createServer(handler);
    base = await listen(server);
    otherBase = await listen(other);
    open = await module(allowing);
    guarded = await module(strict);
  });

  afterAll(async () => {
    await open.mod.close();
    await guarded.mod.close();
    server.closeAllConnections();
    other.closeAllConnections();
    await new Promise((r) => server.close(r));
    await new Promise((r) => other.close(r));
  });

  async function tool(
    on: Awaited<ReturnType<typeof module>>,
    def: Partial<Prisma.ToolDefinitionUncheckedCreateInput> & { url: string },
    secretHeaders?: Record<string, string>,
  ): Promise<AnyTool> {
    const { tenantId } = await createSessionRows(on.prisma);
    const row = await on.prisma.toolDefinition.create({
      data: {
        tenantId,
        toolId: 'consulta',
        method: 'POST',
        parameters: { type: 'object', properties: { cidade: { type: 'string' }, noites: { type: 'integer', minimum: 1 } }, required: ['cidade'] },
        ...def,
        ...(secretHeaders && {
          secretHeadersEncrypted: encryptSecret(JSON.stringify(secretHeaders), parseMasterKey(allowing.MASTER_KEY), SECRET_CONTEXTS.httpToolHeaders(tenantId)),
        }),
      },
    });
    const [t] = await on.tools.forTenant(tenantId, [row.toolId, 'not-defined']);
    return t;
  }

  it('POSTs the arguments as JSON with the plain and secret headers, and the model reads the JSON answer', async () => {
    routes['/preco'] = (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ precoNoite: 420 }));
    };
    const t = await tool(open, { url: `${base}/preco`, headers: { 'x-plain': 'p' }, readOnly: true }, { authorization: 'Bearer tenant-secret' });

    expect(await t.handler({ cidade: 'Curitiba' }, ctx())).toEqual({ value: { precoNoite: 420 } });
    const req = seen.at(-1)!;
    expect(req.method).toBe('POST');
    expect(JSON.parse(req.body)).toEqual({ cidade: 'Curitiba' });
    expect(req.headers).toMatchObject({ 'x-plain': 'p', authorization: 'Bearer tenant-secret', 'content-type': 'application/json' });
    expect(req.headers['idempotency-key']).toMatch(/^s1:idle:m1:consulta:[0-9a-f]{16}$/);
    expect(t.isReadOnly?.({})).toBe(true);
    expect(t.isDestructive?.({})).toBe(false);
  });

  it('sends GET arguments as query parameters and gives text answers as text', async () => {
    routes['/texto'] = (_req, res) => res.end('diária: 420');
    const t = await tool(open, { url: `${base}/texto?fixo=1`, method: 'GET' });
    expect(await t.handler({ cidade: 'São Paulo', noites: 2 }, ctx())).toEqual({ value: 'diária: 420' });
    expect(seen.at(-1)!.url).toBe('/texto?fixo=1&cidade=S%C3%A3o+Paulo&noites=2');
  });

  it("checks the arguments against the tool's JSON Schema before any call", async () => {
    const t = await tool(open, { url: `${base}/preco` });
    const before = seen.length;
    expect(await t.validateInput?.({ noites: 0 }, ctx())).toEqual({
      valid: false,
      error: expect.stringMatching(/must have required property 'cidade'.*must be >= 1/),
    });
    expect(await t.validateInput?.({ cidade: 'Curitiba' }, ctx())).toEqual({ valid: true });
    expect(seen.length).toBe(before);
  });

  it('fails with the status and the start of the body on a non-2xx answer', async () => {
    routes['/erro'] = (_req, res) => {
      res.statusCode = 503;
      res.end('manutenção');
    };
    const t = await tool(open, { url: `${base}/erro` });
    await expect(t.handler({ cidade: 'x' }, ctx())).rejects.toThrow('the endpoint answered HTTP 503: manutenção');
  });

  it('gives up after the tool timeout on an endpoint that hangs', async () => {
    routes['/lento'] = () => undefined;
    const t = await tool(open, { url: `${base}/lento`, timeoutMs: 300 });
    const started = Date.now();
    await expect(t.handler({ cidade: 'x' }, ctx())).rejects.toThrow('no answer within 300 ms');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a 5 MB answer past the size cap', async () => {
    routes['/grande'] = (_req, res) => res.end('x'.repeat(5_000_000));
    const t = await tool(open, { url: `${base}/grande` });
    await expect(t.handler({ cidade: 'x' }, ctx())).rejects.toThrow('the response is larger than 1000000 bytes');
  });

  it('keeps the tenant headers from another origin a redirect leads to', async () => {
    routes['/vai'] = (_req, res) => {
      res.statusCode = 302;
      res.setHeader('location', `${otherBase}/chegou`);
      res.end();
    };
    routes['/chegou'] = (_req, res) => res.end('ok');
    const t = await tool(open, { url: `${base}/vai`, method: 'GET' }, { authorization: 'Bearer tenant-secret' });
    expect(await t.handler({ cidade: 'x' }, ctx())).toEqual({ value: 'ok' });
    expect(seen.at(-2)!.headers.authorization).toBe('Bearer tenant-secret');
    expect(seen.at(-1)!.headers.authorization).toBeUndefined();
  });

  it.each([
    ['loopback', 'http://127.0.0.1:9/x', /refused to call 127\.0\.0\.1: loopback, private, link-local and metadata addresses/],
    ['a private address', 'http://10.0.0.1/x', /refused to call 10\.0\.0\.1/],
    ['the metadata endpoint', 'http://169.254.169.254/latest/meta-data/', /refused to call 169\.254\.169\.254/],
    ['a host name resolving to loopback', 'http://localhost:9/x', /refused to call localhost \((127\.0\.0\.1|::1)\)/],
    ['IPv6 loopback', 'http://[::1]:9/x', /refused to call \[?::1\]?/],
  ])('refuses %s', async (_what, url, message) => {
    const t = await tool(guarded, { url });
    const before = seen.length;
    await expect(t.handler({ cidade: 'x' }, ctx())).rejects.toThrow(message);
    expect(seen.length).toBe(before);
  });

  it('refuses a redirect to loopback from an allowed host', async () => {
    routes['/pula'] = (_req, res) => {
      res.statusCode = 307;
      res.setHeader('location', `http://localhost:${new URL(base).port}/preco`);
      res.end();
    };
    const t = await tool(open, { url: `${base}/pula` });
    await expect(t.handler({ cidade: 'x' }, ctx())).rejects.toThrow(/refused to call localhost/);
  });

  it('refuses a definition whose parameters are not a JSON Schema, naming the tool', async () => {
    const { tenantId } = await createSessionRows(open.prisma);
    await open.prisma.toolDefinition.create({
      data: { tenantId, toolId: 'quebrada', url: `${base}/x`, parameters: { type: 'object', properties: { a: { type: 'nada' } } } },
    });
    await expect(open.tools.forTenant(tenantId, ['quebrada'])).rejects.toThrow(/HTTP tool "quebrada": its parameters are not a valid JSON Schema/);
  });
});

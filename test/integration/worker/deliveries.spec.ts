import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Test, type TestingModule } from '@nestjs/testing';
import { DbModule, encryptSecret, parseMasterKey, PrismaService } from '@switchboard/db';
import { loadWorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { WorkerEnvModule } from '../../../apps/worker/src/config/worker-env.module';
import { DeliveriesModule } from '../../../apps/worker/src/deliveries/deliveries.module';
import { DeliveryDispatcher } from '../../../apps/worker/src/deliveries/delivery-dispatcher';
import { SIGNATURE_HEADER, verifyWebhook } from '../../../apps/worker/src/deliveries/webhook-signature';
import { createSessionRows, type SessionRows } from './support/rows';

// Webhook delivery of replies against a real local receiver: signed, in order per session,
// retried with backoff, dead-lettered after the last attempt, and sent again once redriven.

jest.setTimeout(30_000);

const SECRET = 'whsec-test-123';

const place = ({ tenantId, sessionId, channelId }: SessionRows) => ({ tenantId, sessionId, channelId });

describe('webhook deliveries', () => {
  const env = loadWorkerEnv({
    ...process.env,
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    DELIVERY_POLL_MS: '600000',
    DELIVERY_BACKOFF_MS: '10',
    DELIVERY_MAX_ATTEMPTS: '3',
  });
  let mod: TestingModule;
  let prisma: PrismaService;
  let server: Server;
  let base: string;
  const received: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const failuresLeft = new Map<string, number>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ path: req.url!, headers: req.headers, body });
        const left = failuresLeft.get(req.url!) ?? 0;
        if (left !== 0) {
          failuresLeft.set(req.url!, left - 1);
          res.statusCode = 500;
          res.end('receiver down');
          return;
        }
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    mod = await Test.createTestingModule({
      imports: [WorkerEnvModule.forRoot(env), DbModule.forRoot({ url: env.DATABASE_URL }), DeliveriesModule],
    }).compile();
    await mod.init();
    prisma = mod.get(PrismaService);
  });

  afterAll(async () => {
    await mod.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  /** A session whose channel posts to `path`, with outbound replies waiting for delivery. */
  async function repliesToDeliver(path: string, texts: string[]): Promise<{ rows: SessionRows; ids: string[] }> {
    const rows = await createSessionRows(prisma);
    await prisma.channel.update({
      where: { id: rows.channelId },
      data: {
        webhookUrl: `${base}${path}`,
        webhookSecretEncrypted: encryptSecret(SECRET, parseMasterKey(env.MASTER_KEY), `channel-webhook:${rows.tenantId}`),
      },
    });
    const ids: string[] = [];
    for (const [i, text] of texts.entries()) {
      const m = await prisma.message.create({
        data: { ...place(rows), direction: 'outbound', status: 'sent', text, key: `k${i}` },
      });
      await prisma.delivery.create({
        data: { tenantId: rows.tenantId, channelId: rows.channelId, messageId: m.id, url: `${base}${path}`, nextAttemptAt: new Date() },
      });
      ids.push(m.id);
    }
    return { rows, ids };
  }

  async function ticks(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      await mod.get(DeliveryDispatcher).tick(new Date(Date.now() + 60_000));
    }
  }

  const deliveries = (ids: string[]) =>
    prisma.delivery.findMany({ where: { messageId: { in: ids } }, orderBy: { createdAt: 'asc' } });

  it('delivers once, signed, to a receiver that fails twice first', async () => {
    failuresLeft.set('/twice', 2);
    const { rows, ids } = await repliesToDeliver('/twice', ['A diária em Curitiba sai por R$ 420.']);

    await ticks(4);

    const [d] = await deliveries(ids);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null });
    const hits = received.filter((r) => r.path === '/twice');
    expect(hits.map((h) => JSON.parse(h.body).deliveryId)).toEqual([d.id, d.id, d.id]);
    const last = hits.at(-1)!;
    expect(JSON.parse(last.body)).toEqual({
      deliveryId: d.id,
      messageId: ids[0],
      sessionId: rows.sessionId,
      session: expect.any(String),
      channelId: rows.channelId,
      text: 'A diária em Curitiba sai por R$ 420.',
      createdAt: expect.any(String),
    });
    expect(verifyWebhook(SECRET, last.body, String(last.headers[SIGNATURE_HEADER]), Math.floor(Date.now() / 1000))).toBe(true);
    expect(last.headers['x-switchboard-delivery']).toBe(d.id);
  });

  it('keeps the order of a session: a reply waits until the one before it is delivered', async () => {
    failuresLeft.set('/ordered', 1);
    const { ids } = await repliesToDeliver('/ordered', ['primeira', 'segunda', 'terceira']);

    await ticks(5);

    const texts = received.filter((r) => r.path === '/ordered').map((r) => JSON.parse(r.body).text);
    expect(texts).toEqual(['primeira', 'primeira', 'segunda', 'terceira']);
    expect((await deliveries(ids)).map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('dead-letters after the last attempt with its error, lets later replies go, and delivers once redriven', async () => {
    failuresLeft.set('/down', -1);
    const { ids } = await repliesToDeliver('/down', ['perdida', 'depois']);

    await ticks(5);

    const [dead, after] = await deliveries(ids);
    expect(dead).toMatchObject({ status: 'dead', attempts: 3, lastStatusCode: 500, lastError: 'HTTP 500: receiver down', nextAttemptAt: null });
    expect(after.status).toBe('failed');

    // Redrive (what the API's action does): back to pending, now, with fresh attempts.
    failuresLeft.set('/down', 0);
    await prisma.delivery.update({ where: { id: dead.id }, data: { status: 'pending', attempts: 0, nextAttemptAt: new Date() } });
    await ticks(3);
    expect((await deliveries(ids)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
  });

  it('refuses a webhook on a private address unless allow-listed', async () => {
    const rows = await createSessionRows(prisma);
    const m = await prisma.message.create({ data: { ...place(rows), direction: 'outbound', status: 'sent', text: 'x', key: 'k' } });
    const d = await prisma.delivery.create({
      data: { tenantId: rows.tenantId, channelId: rows.channelId, messageId: m.id, url: 'http://10.0.0.1/hook', nextAttemptAt: new Date() },
    });
    await ticks(1);
    expect(await prisma.delivery.findUniqueOrThrow({ where: { id: d.id } })).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/^refused to call 10\.0\.0\.1: loopback, private/),
    });
  });
});

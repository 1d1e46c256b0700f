import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Test, type TestingModule } from '@nestjs/testing';
import { DbModule, encryptSecret, parseMasterKey, PrismaService } from '@switchboard/db';
import { loadWorkerEnv, type WorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { WorkerEnvModule } from '../../../apps/worker/src/config/worker-env.module';
import { DeliveriesModule } from '../../../apps/worker/src/deliveries/deliveries.module';
import { DeliveryDispatcher } from '../../../apps/worker/src/deliveries/delivery-dispatcher';
import { eventDeliveryRow, handedOffEvent, newWebhookSecret } from '@switchboard/webhooks';
import { Webhook } from 'standardwebhooks';
import { LEGACY_SIGNATURE_HEADER } from '../../../apps/worker/src/deliveries/webhook-signature';
import { createMigratedDatabase, dropDatabase, uniqueName } from '../../support/test-database';
import { createSessionRows, type SessionRows } from './support/rows';

// Webhook delivery of replies against a real local receiver: signed the Standard Webhooks way
// (checked with the `standardwebhooks` library), in order per session, retried with backoff,
// dead-lettered after the last attempt, and sent again once redriven; secrets during a rotation
// and from before Standard Webhooks; events that are not replies.

jest.setTimeout(30_000);

const SECRET = newWebhookSecret();

const place = ({ tenantId, sessionId, channelId }: SessionRows) => ({ tenantId, sessionId, channelId });

describe('webhook deliveries', () => {
  // A database of its own: the dispatcher sends every due delivery it finds, and another suite's
  // (a redriven one, say) must not be sent, retried or dead-lettered from here.
  const dbName = uniqueName('sbt_deliveries');
  let env: WorkerEnv;
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
    env = loadWorkerEnv({
      ...process.env,
      DATABASE_URL: await createMigratedDatabase(dbName),
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      DELIVERY_POLL_MS: '600000',
      DELIVERY_BACKOFF_MS: '10',
      DELIVERY_MAX_ATTEMPTS: '3',
    });
    mod = await Test.createTestingModule({
      imports: [WorkerEnvModule.forRoot(env), DbModule.forRoot({ url: env.DATABASE_URL }), DeliveriesModule],
    }).compile();
    await mod.init();
    prisma = mod.get(PrismaService);
  });

  afterAll(async () => {
    await mod?.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await dropDatabase(dbName);
  });

  const seal = (secret: string, tenantId: string) => encryptSecret(secret, parseMasterKey(env.MASTER_KEY), `channel-webhook:${tenantId}`);
  const headersOf = (hit: { headers: IncomingMessage['headers'] }) => hit.headers as Record<string, string>;

  /** A session whose channel posts to `path`, with outbound replies waiting for delivery. */
  async function repliesToDeliver(path: string, texts: string[], secret = SECRET): Promise<{ rows: SessionRows; ids: string[] }> {
    const rows = await createSessionRows(prisma);
    await prisma.channel.update({
      where: { id: rows.channelId },
      data: { webhookUrl: `${base}${path}`, webhookSecretEncrypted: seal(secret, rows.tenantId) },
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
    // Every attempt carries the delivery's id as webhook-id, and each one verifies.
    expect(hits.map((h) => [JSON.parse(h.body).deliveryId, h.headers['webhook-id']])).toEqual([
      [d.id, d.id],
      [d.id, d.id],
      [d.id, d.id],
    ]);
    for (const h of hits) expect(new Webhook(SECRET).verify(h.body, headersOf(h))).toEqual(JSON.parse(h.body));
    const last = hits.at(-1)!;
    const message = await prisma.message.findUniqueOrThrow({ where: { id: ids[0] } });
    expect(JSON.parse(last.body)).toEqual({
      type: 'message.reply',
      version: 1,
      timestamp: message.createdAt.toISOString(),
      deliveryId: d.id,
      channelId: rows.channelId,
      sessionId: rows.sessionId,
      session: expect.any(String),
      messageId: ids[0],
      text: 'A diária em Curitiba sai por R$ 420.',
      createdAt: message.createdAt.toISOString(),
    });
    expect(last.headers['x-switchboard-delivery']).toBe(d.id);
    // A Standard Webhooks secret: no header of the old scheme.
    expect(last.headers[LEGACY_SIGNATURE_HEADER]).toBeUndefined();
  });

  it('keeps signing with a secret from before Standard Webhooks, in both schemes', async () => {
    const legacy = 'whsec_pre-standard-secret_0123456789abcdefghijklmnopq';
    const { ids } = await repliesToDeliver('/legacy', ['Oi'], legacy);

    await ticks(1);

    const [d] = await deliveries(ids);
    expect(d.status).toBe('delivered');
    const [hit] = received.filter((r) => r.path === '/legacy');
    // The library with the secret's characters as its key (the raw form)...
    expect(new Webhook(legacy, { format: 'raw' }).verify(hit.body, headersOf(hit))).toMatchObject({ type: 'message.reply', text: 'Oi' });
    // ...and the old header, computed as before, for receivers not yet switched.
    const t = hit.headers['webhook-timestamp'];
    expect(hit.headers[LEGACY_SIGNATURE_HEADER]).toBe(`t=${t},v1=${createHmac('sha256', legacy).update(`${t}.${hit.body}`).digest('hex')}`);
  });

  it('signs with the previous secret too until its grace period ends', async () => {
    const previous = newWebhookSecret();
    const { rows, ids } = await repliesToDeliver('/rotating', ['primeira', 'segunda']);
    await prisma.channel.update({
      where: { id: rows.channelId },
      data: { webhookSecretPreviousEncrypted: seal(previous, rows.tenantId), webhookSecretPreviousExpiresAt: new Date(Date.now() + 60_000) },
    });
    await ticks(1);
    await prisma.channel.update({ where: { id: rows.channelId }, data: { webhookSecretPreviousExpiresAt: new Date(Date.now() - 1) } });
    await ticks(1);

    expect((await deliveries(ids)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
    const [during, after] = received.filter((r) => r.path === '/rotating');
    expect(headersOf(during)['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(SECRET).verify(during.body, headersOf(during))).toMatchObject({ text: 'primeira' });
    expect(new Webhook(previous).verify(during.body, headersOf(during))).toMatchObject({ text: 'primeira' });
    expect(headersOf(after)['webhook-signature'].split(' ')).toHaveLength(1);
    expect(new Webhook(SECRET).verify(after.body, headersOf(after))).toMatchObject({ text: 'segunda' });
    expect(() => new Webhook(previous).verify(after.body, headersOf(after))).toThrow('No matching signature found');
  });

  it('delivers an event that is not a reply at once, without waiting behind the session’s replies', async () => {
    failuresLeft.set('/events', 1);
    const { rows, ids } = await repliesToDeliver('/events', ['antes']);
    const session = await prisma.session.findUniqueOrThrow({ where: { id: rows.sessionId } });
    const event = handedOffEvent({ deliveryId: randomUUID(), channelId: rows.channelId, sessionId: rows.sessionId, session: session.externalKey, at: new Date() }, 'pediu');
    await prisma.delivery.create({ data: eventDeliveryRow(event, rows.tenantId, `${base}/events`) });

    // One round: the reply is refused (500) and waits; the hand-off goes anyway.
    await ticks(1);

    const hits = received.filter((r) => r.path === '/events');
    expect(hits.map((h) => JSON.parse(h.body).type).sort()).toEqual(['message.reply', 'session.handed_off']);
    const handOff = hits.find((h) => JSON.parse(h.body).type === 'session.handed_off')!;
    expect(handOff.body).toBe(JSON.stringify(event));
    expect(new Webhook(SECRET).verify(handOff.body, headersOf(handOff))).toEqual(event);
    expect(handOff.headers['webhook-id']).toBe(event.deliveryId);
    expect(await prisma.delivery.findUniqueOrThrow({ where: { id: event.deliveryId } })).toMatchObject({ status: 'delivered', messageId: null, sessionId: rows.sessionId });
    expect((await deliveries(ids))[0].status).toBe('failed');
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

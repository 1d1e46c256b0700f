import type { PrismaService } from '@switchboard/db';
import type { WorkerEnv } from '../config/worker-env';
import type { SecretBox } from '../secrets/secret-box';
import { AdapterDeliveries, type AdapterDelivery } from './adapter-deliveries';
import type { ChannelAdapter } from './channel-adapter';
import type { ChannelAdapters } from './channel-adapters';
import type { SendOutcome } from './platform-call';

// A delivery's lastError is read by the tenant's viewers, while a channel's credentials are
// write-only: whatever an adapter reports (a platform echoing its URL, a thrown error naming it)
// must come back without them.

const TOKEN = '123456:AAH-secret-bot-token-abcdefghijklmnop';

function deliveries(sendPart: () => Promise<SendOutcome>): AdapterDeliveries {
  const prisma = {
    channel: { findUniqueOrThrow: async () => ({ settings: {}, secretsEncrypted: 'sealed' }) },
    message: { findFirst: async () => ({ createdAt: new Date() }) },
    delivery: { findUniqueOrThrow: async () => ({ partsSent: 0 }), update: async () => ({}) },
  } as unknown as PrismaService;
  const box = { decrypt: () => JSON.stringify({ botToken: TOKEN }) } as unknown as SecretBox;
  const adapter = { kind: 'telegram', maxChars: 4096, format: (t: string) => t, sendPart, sessionEvent: async () => ({ ok: true }) } as unknown as ChannelAdapter;
  const adapters = { get: () => adapter } as unknown as ChannelAdapters;
  return new AdapterDeliveries({ OUTBOUND_ALLOWED_HOSTS: [] } as unknown as WorkerEnv, prisma, box, adapters);
}

const reply: AdapterDelivery = {
  id: 'd1', tenantId: '00000000-0000-4000-8000-000000000001', channelId: 'c1', messageId: 'm1',
  sessionId: 's1', sessionKey: '42', text: 'Olá', payload: null,
};

describe('AdapterDeliveries', () => {
  it('scrubs the channel credentials out of an error the platform answered', async () => {
    const outcome = await deliveries(async () => ({ ok: false, status: 404, error: `Telegram 404: no route /bot${TOKEN}/sendMessage` })).send('telegram', reply);
    expect(outcome).toMatchObject({ ok: false, status: 404 });
    expect(JSON.stringify(outcome)).not.toContain(TOKEN);
    expect((outcome as { error: string }).error).toContain('Telegram 404: no route /bot[redacted]/sendMessage');
  });

  it('scrubs them out of an error an adapter threw, which becomes a retry', async () => {
    const outcome = await deliveries(async () => {
      throw new Error(`not a valid URL: http://bad host/bot${TOKEN}/sendMessage`);
    }).send('telegram', reply);
    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome)).not.toContain(TOKEN);
  });

  it('passes a sent reply through', async () => {
    await expect(deliveries(async () => ({ ok: true })).send('telegram', reply)).resolves.toEqual({ ok: true });
  });
});

import { createHmac, randomBytes } from 'node:crypto';
import { newWebhookSecret } from '@switchboard/webhooks';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { LEGACY_SIGNATURE_HEADER, signWebhook } from './webhook-signature';

// Signatures are checked with the `standardwebhooks` library receivers use, not with our own code.

const body = JSON.stringify({ type: 'message.reply', version: 1, text: 'Olá, ação!' });
const id = '0b9a4c62-5d1e-4f7a-9c3b-2e8f6a1d4b70';

function verify(secret: string | Buffer, headers: Record<string, string>, payload = body): unknown {
  return (typeof secret === 'string' ? new Webhook(secret) : new Webhook(secret, { format: 'raw' })).verify(payload, headers);
}

describe('signWebhook', () => {
  it('sends webhook-id, webhook-timestamp in seconds and one v1 signature the library accepts', () => {
    const secret = newWebhookSecret();
    const at = new Date();
    const headers = signWebhook({ id, body, secrets: [secret], at });
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verify(secret, headers)).toEqual(JSON.parse(body));
    expect(headers).not.toHaveProperty(LEGACY_SIGNATURE_HEADER);
  });

  it('is refused by the library for a tampered body, a wrong secret and an old timestamp', () => {
    const secret = newWebhookSecret();
    const headers = signWebhook({ id, body, secrets: [secret], at: new Date() });
    expect(() => verify(secret, headers, body.replace('Olá', 'Ola'))).toThrow(new WebhookVerificationError('No matching signature found'));
    expect(() => verify(newWebhookSecret(), headers)).toThrow(new WebhookVerificationError('No matching signature found'));
    const old = signWebhook({ id, body, secrets: [secret], at: new Date(Date.now() - 6 * 60_000) });
    expect(() => verify(secret, old)).toThrow(new WebhookVerificationError('Message timestamp too old'));
    // The timestamp is inside the MAC: moving it forward breaks the signature.
    expect(() => verify(secret, { ...old, 'webhook-timestamp': headers['webhook-timestamp'] })).toThrow(new WebhookVerificationError('No matching signature found'));
  });

  it('signs with every valid secret, space-separated, so both verify during a rotation', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const headers = signWebhook({ id, body, secrets: [current, previous], at: new Date() });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verify(current, headers)).toEqual(JSON.parse(body));
    expect(verify(previous, headers)).toEqual(JSON.parse(body));
    expect(() => verify(newWebhookSecret(), headers)).toThrow(WebhookVerificationError);
  });

  it("keys a secret made before Standard Webhooks by its own characters, and still sends the old header", () => {
    const legacy = `whsec_${randomBytes(32).toString('base64url')}`;
    const at = new Date();
    const headers = signWebhook({ id, body, secrets: [legacy], at });
    // Verifiable with the libraries' raw-key form...
    expect(verify(Buffer.from(legacy, 'utf8'), headers)).toEqual(JSON.parse(body));
    // ...and by a receiver still checking the old header, unchanged.
    const t = Math.floor(at.getTime() / 1000);
    expect(headers[LEGACY_SIGNATURE_HEADER]).toBe(`t=${t},v1=${createHmac('sha256', legacy).update(`${t}.${body}`).digest('hex')}`);
  });

  it('matches the worked example of docs/webhooks.md', () => {
    const secret = `whsec_${Buffer.from([...Array(32).keys()]).toString('base64')}`;
    expect(secret).toBe('whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=');
    const example =
      '{"type":"webhook.test","version":1,"timestamp":"2026-12-03T16:00:00.000Z","deliveryId":"0b9a4c62-5d1e-4f7a-9c3b-2e8f6a1d4b70","channelId":"5f2d8e41-7c3a-4b9e-8d6f-1a2b3c4d5e6f","text":"hi"}';
    const headers = signWebhook({ id: '0b9a4c62-5d1e-4f7a-9c3b-2e8f6a1d4b70', body: example, secrets: [secret], at: new Date(1_796_313_600_000) });
    expect(headers).toEqual({
      'webhook-id': '0b9a4c62-5d1e-4f7a-9c3b-2e8f6a1d4b70',
      'webhook-timestamp': '1796313600',
      'webhook-signature': 'v1,alZ+w/bJPcGOf9s+t55cLZaFndLKTMmvXlGCg1vsDoU=',
    });
  });

  it('sends the id and timestamp but no signature for a channel without a secret', () => {
    const headers = signWebhook({ id, body, secrets: [], at: new Date(1_800_000_000_000) });
    expect(headers).toEqual({ 'webhook-id': id, 'webhook-timestamp': '1800000000' });
  });
});

import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, webhookSigningKey } from './webhook-secret';

describe('webhook secrets', () => {
  it('makes whsec_ secrets of 32 random bytes in standard base64, which the Standard Webhooks library takes as they are', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newWebhookSecret()).not.toBe(secret);
    const { key, legacy } = webhookSigningKey(secret);
    expect(legacy).toBe(false);
    expect(key).toEqual(Buffer.from(secret.slice('whsec_'.length), 'base64'));
    // The library derives the same key from the string: its signature equals one made with our key.
    const at = new Date();
    expect(new Webhook(secret).sign('id', at, 'body')).toBe(new Webhook(key, { format: 'raw' }).sign('id', at, 'body'));
  });

  it('keys a secret from before Standard Webhooks (base64url, no padding) by its own characters', () => {
    const old = `whsec_${randomBytes(32).toString('base64url')}`;
    expect(webhookSigningKey(old)).toEqual({ key: Buffer.from(old, 'utf8'), legacy: true });
  });

  it.each([
    ['no prefix', randomBytes(32).toString('base64')],
    ['too short a key', `whsec_${randomBytes(16).toString('base64')}`],
    ['too long a key', `whsec_${randomBytes(65).toString('base64')}`],
    ['not base64', 'whsec_not base64!'],
  ])('treats anything else (%s) as raw characters too', (_why, secret) => {
    expect(webhookSigningKey(secret)).toEqual({ key: Buffer.from(secret, 'utf8'), legacy: true });
  });
});

import { signWebhook, verifyWebhook } from './webhook-signature';

describe('webhook signature', () => {
  const body = JSON.stringify({ text: 'A diária em Curitiba sai por R$ 420.' });

  it('verifies what it signed, within the tolerance', () => {
    const header = signWebhook('s3cret', body, 1_800_000_000);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook('s3cret', body, header, 1_800_000_100)).toBe(true);
  });

  it('refuses another secret, a changed body, and an old timestamp', () => {
    const header = signWebhook('s3cret', body, 1_800_000_000);
    expect(verifyWebhook('other', body, header, 1_800_000_000)).toBe(false);
    expect(verifyWebhook('s3cret', body + ' ', header, 1_800_000_000)).toBe(false);
    expect(verifyWebhook('s3cret', body, header, 1_800_001_000)).toBe(false);
    expect(verifyWebhook('s3cret', body, 'garbage', 1_800_000_000)).toBe(false);
  });
});

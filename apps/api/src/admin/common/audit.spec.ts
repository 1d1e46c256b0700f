import { REDACTED, redactSecrets } from './audit';

describe('redactSecrets', () => {
  it('replaces secret-looking values at any depth and keeps the rest', () => {
    expect(
      redactSecrets({
        name: 'web',
        webhookSecretEncrypted: 'v1.x.y.z',
        nested: [{ passwordHash: '$argon2id$...', key: 'sb_live_x', prefix: 'sb_live_abc' }],
        secretHeaders: { Authorization: 'Bearer x' },
        emptySecret: null,
        at: new Date('2026-12-02T00:00:00Z'),
        big: 5n,
      }),
    ).toEqual({
      name: 'web',
      webhookSecretEncrypted: REDACTED,
      nested: [{ passwordHash: REDACTED, key: REDACTED, prefix: 'sb_live_abc' }],
      secretHeaders: REDACTED,
      emptySecret: null,
      at: '2026-12-02T00:00:00.000Z',
      big: '5',
    });
  });
});

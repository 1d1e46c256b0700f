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

  it('masks the user name and password of any URL, and leaves other URLs and text alone', () => {
    expect(
      redactSecrets({
        webhookUrl: 'https://u:p4ss@hooks.example.test/in?x=1',
        list: ['http://only-user@h.example.test/', 'https://plain.example.test/a@b', 'mailto:someone@example.test', 'a@b'],
      }),
    ).toEqual({
      webhookUrl: 'https://***@hooks.example.test/in?x=1',
      list: ['http://***@h.example.test/', 'https://plain.example.test/a@b', 'mailto:someone@example.test', 'a@b'],
    });
  });
});

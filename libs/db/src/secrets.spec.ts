import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, parseMasterKey, secretHint, SecretDecryptError, SecretKeyError } from './secrets';

const key = randomBytes(32);

describe('secrets at rest', () => {
  it('round-trips a secret and never stores it in clear', () => {
    const stored = encryptSecret('sk-live-123456789', key, 'provider-credential:t1');
    expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored).not.toContain('sk-live');
    expect(decryptSecret(stored, key, 'provider-credential:t1')).toBe('sk-live-123456789');
  });

  it('uses a fresh iv each time', () => {
    expect(encryptSecret('same', key, 'c')).not.toBe(encryptSecret('same', key, 'c'));
  });

  it('refuses another key, another context or tampered data', () => {
    const stored = encryptSecret('secret', key, 'tenant-a');
    expect(() => decryptSecret(stored, randomBytes(32), 'tenant-a')).toThrow(SecretDecryptError);
    expect(() => decryptSecret(stored, key, 'tenant-b')).toThrow(SecretDecryptError);
    const parts = stored.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => decryptSecret([...parts.slice(0, 3), flipped.toString('base64url')].join('.'), key, 'tenant-a')).toThrow(SecretDecryptError);
    expect(() => decryptSecret('plain-text', key, 'tenant-a')).toThrow(SecretDecryptError);
  });

  it('parses hex and base64 master keys and rejects short ones', () => {
    const raw = randomBytes(32);
    expect(parseMasterKey(raw.toString('hex')).equals(raw)).toBe(true);
    expect(parseMasterKey(raw.toString('base64')).equals(raw)).toBe(true);
    expect(() => parseMasterKey('too-short')).toThrow(SecretKeyError);
  });

  it('hints at a secret by its last 4 characters, and not at all when it is short', () => {
    expect(secretHint('sk-abcdefghijWXYZ')).toBe('WXYZ');
    expect(secretHint('short')).toBe('');
  });
});

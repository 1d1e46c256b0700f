import { API_KEY_VISIBLE_CHARS, generateApiKey, hashApiKey } from './api-keys';

describe('channel API keys', () => {
  it('generates sb_live_ keys of 32 base62 characters, with their prefix and SHA-256 hash', () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^sb_live_[0-9A-Za-z]{32}$/);
    expect(prefix).toBe(key.slice(0, API_KEY_VISIBLE_CHARS));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hash);
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateApiKey().key));
    expect(keys.size).toBe(500);
  });

  it('hashes to the known SHA-256 digest', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

import { createHash, randomBytes } from 'node:crypto';

// Channel API keys: shown once, stored as a SHA-256 hash. A fast hash is right here (unlike
// passwords): the key carries ~190 bits of randomness, so it cannot be guessed offline, and the
// API looks it up on every request by its hash.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_KEY_PREFIX = 'sb_live_';
const RANDOM_CHARS = 32;
/** How many leading characters are stored in clear so people can recognise a key. */
export const API_KEY_VISIBLE_CHARS = 12;

export interface GeneratedApiKey {
  /** The plaintext key: give it to the user once, never store it. */
  key: string;
  /** The first API_KEY_VISIBLE_CHARS characters, stored for display. */
  prefix: string;
  /** SHA-256 hex of the key, stored in ApiKey.keyHash. */
  hash: string;
}

/** Uniform base62 characters by rejection sampling (248 = 4 × 62, so `byte % 62` has no bias). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateApiKey(): GeneratedApiKey {
  const key = API_KEY_PREFIX + randomBase62(RANDOM_CHARS);
  return { key, prefix: key.slice(0, API_KEY_VISIBLE_CHARS), hash: hashApiKey(key) };
}

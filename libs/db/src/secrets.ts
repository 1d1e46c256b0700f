import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Secrets at rest (provider keys, webhook signing secrets, HTTP tool secret headers) are
// encrypted with AES-256-GCM under a master key from the environment. The stored text is
// versioned so the scheme (or the key, via a key id) can change without guessing:
//   v1.<iv>.<auth tag>.<ciphertext>   (base64url parts, 12-byte iv, 16-byte tag)

const VERSION = 'v1';
const IV_BYTES = 12;

export class SecretKeyError extends Error {
  readonly code = 'invalid-master-key';
}

export class SecretDecryptError extends Error {
  readonly code = 'secret-undecryptable';
}

/** Parses a master key given as 64 hex characters or base64 of 32 bytes. */
export function parseMasterKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) {
    throw new SecretKeyError('The secrets master key must be 32 bytes: 64 hex characters or base64 of 32 bytes (e.g. `openssl rand -hex 32`).');
  }
  return key;
}

/**
 * Encrypts a secret. `context` (e.g. "provider-credential:<tenantId>") is bound as additional
 * authenticated data, so a ciphertext copied into another row or tenant does not decrypt.
 */
export function encryptSecret(plaintext: string, masterKey: Buffer, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

export function decryptSecret(stored: string, masterKey: Buffer, context: string): string {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) {
    throw new SecretDecryptError('The stored secret is not in the v1 format.');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // Never echo the ciphertext or the crypto error: either could help an attacker.
    throw new SecretDecryptError('The stored secret cannot be decrypted: wrong master key, wrong context or tampered data.');
  }
}

/** What the API may show of a secret: its last 4 characters. */
export function secretHint(plaintext: string): string {
  return plaintext.length <= 8 ? '' : plaintext.slice(-4);
}

/**
 * The AAD context of each kind of stored secret. The API seals with these and the worker opens
 * with them, so they live here once: a mismatch would make every stored secret undecryptable.
 */
export const SECRET_CONTEXTS = {
  providerCredential: (tenantId: string) => `provider-credential:${tenantId}`,
  channelWebhook: (tenantId: string) => `channel-webhook:${tenantId}`,
  /** A channel kind's credentials (bot tokens, app secrets), sealed as one JSON object. */
  channelSecrets: (tenantId: string) => `channel-secrets:${tenantId}`,
  httpToolHeaders: (tenantId: string) => `http-tool-headers:${tenantId}`,
} as const;

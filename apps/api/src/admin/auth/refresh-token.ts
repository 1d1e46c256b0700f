import { createHash, randomBytes } from 'node:crypto';

// Refresh tokens are 256 random bits; the database keeps only their sha256, so a leaked table
// (or backup) cannot be replayed. A plain hash is enough: the token is not guessable, unlike a
// password, so it needs no slow hash.

export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

import argon2 from 'argon2';

// Console passwords are hashed with argon2id (the library's default parameters: 64 MiB,
// 3 passes), so the seed and the login share one definition of "a password hash".

export const MIN_PASSWORD_LENGTH = 8;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** False on a wrong password and on a malformed hash, never throws for either. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

// Verifying against this hash when the email is unknown keeps the answer time the same as
// for a wrong password, so timing does not tell which emails have accounts.
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('switchboard-decoy-password');
  return decoyHash;
}

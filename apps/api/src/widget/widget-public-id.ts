import { randomBytes } from 'node:crypto';

const PUBLIC_ID = /^wg_[A-Za-z0-9_-]{16,40}$/;

/** A widget channel's public id: in the snippet, not a secret, but not guessable either. */
export function newWidgetPublicId(): string {
  return `wg_${randomBytes(12).toString('base64url')}`;
}

/** Whether `value` can be a public id (checked before any query). */
export function isWidgetPublicId(value: string): boolean {
  return PUBLIC_ID.test(value);
}

import { ConflictError, NotFoundError } from '../common/errors';

export class SessionNotFoundError extends NotFoundError {
  constructor() {
    super('session-not-found', 'No session with this id on your tenant.');
  }
}

/**
 * A channel message id seen before, now with another session or text. A retry of the same
 * message is answered with the first one; this is a client reusing an id for a new message, and
 * the new text must not disappear silently. Same code as /start and /events use.
 */
export class MessageIdReusedError extends ConflictError {
  constructor() {
    super('idempotency-key-reused', 'This message id was already used for a different message (another session or text). Use a new id for a new message.', [
      { location: 'body', path: 'id', issue: 'idempotency-key-reused', message: 'Already used for a different message.' },
    ]);
  }
}

import { NotFoundError } from '../common/errors';

export class SessionNotFoundError extends NotFoundError {
  constructor() {
    super('session-not-found', 'No session with this id on your tenant.');
  }
}

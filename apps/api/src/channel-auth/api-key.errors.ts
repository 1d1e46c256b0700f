import { UnauthorizedError } from '../common/errors';

export class MissingApiKeyError extends UnauthorizedError {
  constructor() {
    super('missing-api-key', 'Send the channel API key as "Authorization: Bearer <key>".');
  }
}

export class InvalidApiKeyError extends UnauthorizedError {
  constructor() {
    super('invalid-api-key', 'The API key is not valid. Check it, or create a new key for the channel in the console.');
  }
}

export class RevokedApiKeyError extends UnauthorizedError {
  constructor() {
    super('api-key-revoked', 'The API key was revoked. Create a new key for the channel in the console.');
  }
}

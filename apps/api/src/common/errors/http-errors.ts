import { ApiError, type ErrorDetail } from './api-error';

// Reusable 4xx errors. Feature modules subclass these with their own stable codes when a
// client needs to tell cases apart (e.g. SessionNotFoundError → `session-not-found`).

export class BadRequestError extends ApiError {
  readonly status = 400;
  constructor(
    readonly code: string,
    message: string,
    details?: unknown,
  ) {
    super(message, details);
  }
}

/** The request is well-formed JSON but its values break the endpoint's schema. */
export class ValidationFailedError extends ApiError {
  readonly status = 400;
  readonly code = 'validation-failed';
  constructor(
    message: string,
    override readonly details: ErrorDetail[],
  ) {
    super(message, details);
  }
}

export class InvalidJsonError extends ApiError {
  readonly status = 400;
  readonly code = 'invalid-json';
}

export class UnauthorizedError extends ApiError {
  readonly status = 401;
  constructor(
    readonly code: string = 'unauthorized',
    message = 'Authentication is required.',
  ) {
    super(message);
  }
}

export class ForbiddenError extends ApiError {
  readonly status = 403;
  constructor(
    readonly code: string = 'forbidden',
    message = 'You are not allowed to do this.',
  ) {
    super(message);
  }
}

export class NotFoundError extends ApiError {
  readonly status = 404;
  constructor(
    readonly code: string = 'not-found',
    message = 'Not found.',
  ) {
    super(message);
  }
}

export class ConflictError extends ApiError {
  readonly status = 409;
  constructor(
    readonly code: string,
    message: string,
    details?: unknown,
  ) {
    super(message, details);
  }
}

export class UnprocessableError extends ApiError {
  readonly status = 422;
  constructor(
    readonly code: string,
    message: string,
    details?: unknown,
  ) {
    super(message, details);
  }
}

export class TooManyRequestsError extends ApiError {
  readonly status = 429;
  constructor(
    readonly code: string,
    message: string,
    /** Seconds the client should wait; the filter sends it as Retry-After. */
    readonly retryAfterSeconds?: number,
    details?: unknown,
  ) {
    super(message, details);
  }
}

/**
 * Text Postgres cannot store (a NUL, a lone UTF-16 surrogate) in a body, query, path or header
 * value. Refused before anything runs, naming the field, rather than stored changed or a 500.
 */
export class InvalidCharactersError extends ApiError {
  readonly status = 400;
  readonly code = 'invalid-characters';
  constructor(location: NonNullable<ErrorDetail['location']>, path: string, reason: string) {
    const field = path ? `${location}.${path}` : location;
    super(`${field} ${reason}; remove it and send the text again.`, [
      { location, path, issue: 'invalid-characters', message: `${field} ${reason}.` } satisfies ErrorDetail,
    ]);
  }
}

import { BadRequestError, ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError } from '../common/errors';

// Errors of the console auth and admin REST, each with a stable `code`. They are ApiErrors, so
// the global filter answers them as `{ error: { code, message, details? } }`.

export class InvalidCredentialsError extends UnauthorizedError {
  constructor() {
    // One message for an unknown email and a wrong password: the answer must not tell which.
    super('invalid-credentials', 'Email or password is wrong.');
  }
}

export class UnauthenticatedError extends UnauthorizedError {
  constructor(why: string) {
    super(
      'unauthenticated',
      `${why} Log in with POST /v1/admin/auth/login and send the token as "Authorization: Bearer <token>".`,
    );
  }
}

export class ForbiddenRoleError extends ForbiddenError {
  constructor(role: string, allowed: readonly string[]) {
    super('forbidden', `Your role (${role}) may not do this; it needs one of: ${allowed.join(', ') || 'none'}.`);
  }
}

export type ListQueryErrorCode = 'invalid-sort' | 'invalid-range' | 'invalid-filter' | 'unknown-query-parameter';

/** A bad `sort`, `range`, `filter` or an unknown query parameter on a list route. */
export class InvalidListQueryError extends BadRequestError {
  constructor(code: ListQueryErrorCode, message: string, details?: unknown) {
    super(code, message, details);
  }
}

/** Also the answer for another tenant's id: its existence is not revealed. */
export class ResourceNotFoundError extends NotFoundError {
  constructor(resource: string, id: string) {
    super('not-found', `No ${resource} with id "${id}".`);
  }
}

export class TooManyLoginAttemptsError extends TooManyRequestsError {
  constructor(retryAfterSeconds: number) {
    super(
      'too-many-login-attempts',
      `Too many failed logins. Wait ${retryAfterSeconds} seconds and try again.`,
      retryAfterSeconds,
    );
  }
}

import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError, UnprocessableError } from '../common/errors';

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

/** A row others still depend on (an agent with channels, a tool an agent allows). */
export class InUseError extends ConflictError {
  constructor(code: string, message: string, details?: unknown) {
    super(code, message, details);
  }
}

/** A unique name or id is taken in the tenant. */
export class AlreadyExistsError extends ConflictError {
  constructor(what: string, value: string) {
    super('already-exists', `A ${what} "${value}" already exists. Pick another one.`);
  }
}

/** A reference to a row that does not exist in the tenant (credential, agent, channel). */
export class UnknownReferenceError extends UnprocessableError {
  constructor(code: string, message: string, path: (string | number)[]) {
    super(code, message, { path });
  }
}

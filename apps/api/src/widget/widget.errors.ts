import { ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError } from '../common/errors';

export class WidgetNotFoundError extends NotFoundError {
  constructor() {
    super('widget-not-found', 'No web widget has this id. Copy the snippet again from the channel in the console.');
  }
}

/** The page's origin is not in the channel's allowed origins (or the request sent none). */
export class OriginNotAllowedError extends ForbiddenError {
  constructor(origin: string | undefined) {
    super(
      'origin-not-allowed',
      origin
        ? `This widget is not allowed on ${origin.slice(0, 200)}. Add the origin to the channel's allowed origins in the console.`
        : 'Widget requests must come from a web page (an Origin header) allowed by the channel.',
    );
  }
}

export class MissingVisitorTokenError extends UnauthorizedError {
  constructor() {
    super('missing-visitor-token', 'Send the visitor token from POST /v1/widget/<id>/sessions as "Authorization: Bearer <token>".');
  }
}

export class InvalidVisitorTokenError extends UnauthorizedError {
  constructor() {
    super('invalid-visitor-token', 'The visitor token is not valid for this widget (expired, tampered or of another widget). Ask for a new one with POST /v1/widget/<id>/sessions.');
  }
}

export class WidgetRateLimitedError extends TooManyRequestsError {
  constructor(scope: 'address' | 'widget' | 'visitor' | 'tenant', limit: number, windowSeconds: number, retryAfterSeconds: number) {
    const who = { address: 'this address', widget: 'this widget', visitor: 'this visitor', tenant: "this widget's tenant" }[scope];
    super(
      'rate-limited',
      `Too many requests from ${who}: the limit is ${limit} per ${windowSeconds} s. Retry after ${retryAfterSeconds} seconds.`,
      retryAfterSeconds,
      { scope, limit, windowSeconds },
    );
  }
}

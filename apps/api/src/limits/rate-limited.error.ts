import { TooManyRequestsError } from '../common/errors';

export class RateLimitedError extends TooManyRequestsError {
  constructor(scope: 'api-key' | 'tenant', limit: number, retryAfterSeconds: number) {
    super(
      'rate-limited',
      `Too many messages: the ${scope === 'api-key' ? "API key's" : "tenant's"} limit is ${limit} per minute. Retry after ${retryAfterSeconds} seconds.`,
      retryAfterSeconds,
      { scope, limit, windowSeconds: 60 },
    );
  }
}

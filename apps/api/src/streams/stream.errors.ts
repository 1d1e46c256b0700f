import { ApiError } from '../common/errors';

/** Redis did not confirm the subscription in time: nothing could be relayed; retry shortly. */
export class StreamUnavailableError extends ApiError {
  readonly status = 503;
  readonly code = 'stream-unavailable';
  readonly retryAfterSeconds = 5;

  constructor() {
    super('Live replies are not available right now (the event bus did not answer); retry in a few seconds.');
  }
}

import { ApiError, ConflictError } from '../../common/errors';

/** Nothing to test: the channel reads its replies itself (no webhook URL). */
export class ChannelHasNoWebhookError extends ConflictError {
  constructor(id: string) {
    super('channel-has-no-webhook', `Channel "${id}" has no webhook URL. Set one, save, then send a test delivery.`);
  }
}

/** No worker answered in time (none running, or all busy). */
export class TestDeliveryTimeoutError extends ApiError {
  readonly status = 504;
  readonly code = 'test-delivery-timeout';
  constructor(waitedMs: number) {
    super(`No worker answered the test delivery within ${waitedMs} ms. Check that a worker is running, then try again.`);
  }
}

/** The queue did not take the job: nothing was sent. */
export class TestDeliveryUnavailableError extends ApiError {
  readonly status = 503;
  readonly code = 'queue-unavailable';
  constructor() {
    super('The job queue did not take the test delivery. Nothing was sent; retry in a few seconds.');
  }
}

/** The worker took the job and failed it (not a receiver error, which is a result): a bug or an outage there. */
export class TestDeliveryFailedError extends ApiError {
  readonly status = 502;
  readonly code = 'test-delivery-failed';
  constructor(reason: string) {
    super(`The worker could not send the test delivery: ${reason}`);
  }
}

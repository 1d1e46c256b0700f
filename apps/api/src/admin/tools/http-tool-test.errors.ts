import { ApiError, UnprocessableError } from '../../common/errors';

/** The sample arguments break the tool's JSON Schema: the worker is never asked. */
export class InvalidToolArgumentsError extends UnprocessableError {
  constructor(why: string, details: { path: string; message: string }[]) {
    super('invalid-tool-arguments', `The arguments do not match the tool's parameters: ${why}.`, details);
  }
}

/** No worker answered in time (none running, or all busy); the call may still run later, once. */
export class HttpToolTestTimeoutError extends ApiError {
  readonly status = 504;
  readonly code = 'http-tool-test-timeout';
  constructor(waitedMs: number) {
    super(`No worker answered the test call within ${waitedMs} ms. Check that a worker is running, then try again.`);
  }
}

/** Redis did not take the job: nothing was called. */
export class HttpToolTestUnavailableError extends ApiError {
  readonly status = 503;
  readonly code = 'queue-unavailable';
  constructor() {
    super('The job queue (Redis) did not take the test call. Nothing was called; retry in a few seconds.');
  }
}

/** The worker took the job and failed it (not a tool error, which is a result): a bug or an outage there. */
export class HttpToolTestFailedError extends ApiError {
  readonly status = 502;
  readonly code = 'http-tool-test-failed';
  constructor(reason: string) {
    super(`The worker could not run the test call: ${reason}`);
  }
}

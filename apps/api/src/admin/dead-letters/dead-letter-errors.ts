import { ConflictError } from '../../common/errors';

/** The job is no longer failed: it was retried already (or is running), so a second retry would do nothing. */
export class DeadLetterNotFailedError extends ConflictError {
  constructor(id: string, state: string) {
    super('dead-letter-not-failed', `Job "${id}" is ${state}, not failed; only failed turn jobs can be redriven.`, { state });
  }
}

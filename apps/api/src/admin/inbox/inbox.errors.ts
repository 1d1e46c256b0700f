import { ConflictError } from '../../common/errors';

/** A reply or note needs a person to have the session: take it over first. */
export class SessionNotWithPersonError extends ConflictError {
  constructor(id: string) {
    super('session-not-taken-over', `Session "${id}" is answered by the agent; take it over before replying to the customer.`);
  }
}

/** Another operator has the session; two people answering one customer confuse them. */
export class SessionTakenByOtherError extends ConflictError {
  constructor(id: string, holder: string) {
    super('session-taken-by-other', `Session "${id}" is already taken over by ${holder}.`, { holder });
  }
}

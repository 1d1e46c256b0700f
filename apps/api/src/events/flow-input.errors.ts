import { ConflictError, NotFoundError, UnprocessableError, type ErrorDetail } from '../common/errors';

export class FlowInputSessionNotFoundError extends NotFoundError {
  constructor() {
    super('session-not-found', 'No session with this id on your channel.');
  }
}

/** The same idempotency key was used before for a different request: nothing is stored or run. */
export class IdempotencyKeyReusedError extends ConflictError {
  constructor(what: string) {
    super('idempotency-key-reused', `This key was already used for a different ${what}. Use a new key for a new request.`);
  }
}

/** The channel's agent cannot be read (no valid config): nothing could run the input. */
export class AgentUnavailableError extends UnprocessableError {
  constructor(detail: string) {
    super('agent-unavailable', `The channel's agent cannot run flows right now: ${detail}.`);
  }
}

/** Event data naming fields the agent lacks, or values that do not fit the field. */
export class InvalidEventDataError extends UnprocessableError {
  constructor(details: ErrorDetail[]) {
    super('invalid-event-data', `Invalid event data: ${details.map((d) => `${d.path} (${d.issue})`).join(', ')}. See error.details.`, details);
  }
}

export class UnknownFlowError extends UnprocessableError {
  constructor(flow: string, known: string[]) {
    super('unknown-flow', `The agent has no flow "${flow}". Its flows: ${known.map((f) => `"${f}"`).join(', ') || '(none)'}.`, [
      { location: 'body', path: 'flow', issue: 'unknown-flow', message: `No flow "${flow}".` },
    ]);
  }
}

/**
 * A versioned save lost: the row moved on (or already existed, or is gone) since the host
 * loaded it. The host reloads the session and replays the input (engine.md §5).
 */
export class SessionConflictError extends Error {
  readonly code = 'session-conflict';
  readonly sessionId: string;
  readonly expectedVersion: number;
  /** The stored version, or `undefined` when no row exists. */
  readonly actualVersion: number | undefined;

  constructor(sessionId: string, expectedVersion: number, actualVersion: number | undefined) {
    super(`[SessionConflictError] session ${JSON.stringify(sessionId)}: ${why(expectedVersion, actualVersion)}. Reload the session, replay the input, and save again.`);
    this.name = 'SessionConflictError';
    this.sessionId = sessionId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}

function why(expected: number, actual: number | undefined): string {
  if (expected === 0) return `it was saved as new (expected version 0) but a row already exists at version ${actual}`;
  if (actual === undefined) return `expected version ${expected} but no row exists`;
  return `expected version ${expected} but the stored row is at version ${actual}`;
}

export function isSessionConflictError(err: unknown): err is SessionConflictError {
  return err instanceof SessionConflictError;
}

/** A save called with something that is not a session or a version. A bug in the host. */
export class InvalidSaveError extends Error {
  readonly code = 'invalid-save';

  constructor(what: string) {
    super(`[InvalidSaveError] ${what}.`);
    this.name = 'InvalidSaveError';
  }
}

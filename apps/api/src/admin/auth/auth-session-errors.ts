import { UnauthorizedError } from '../../common/errors';

export type SessionEndedCode =
  | 'refresh-token-missing'
  | 'refresh-token-invalid'
  | 'refresh-token-expired'
  | 'refresh-token-reused'
  | 'account-disabled';

const WHY: Record<SessionEndedCode, string> = {
  'refresh-token-missing': 'No refresh token was sent (the refresh cookie is missing).',
  'refresh-token-invalid': 'The refresh token is unknown.',
  'refresh-token-expired': 'The login session has expired.',
  'refresh-token-reused':
    'The refresh token was already used or its session has ended. Every token of this login is now revoked, in case it was stolen.',
  'account-disabled': 'The account no longer exists or is disabled.',
};

/** A refresh that cannot continue the login session: the console has to log in again. */
export class SessionEndedError extends UnauthorizedError {
  constructor(code: SessionEndedCode) {
    super(code, `${WHY[code]} Log in again with POST /v1/admin/auth/login.`);
  }
}

import { hasUrlCredentials } from '@switchboard/outbound';
import { UnprocessableError } from '../../common/errors';

/**
 * 422 `url-credentials-not-allowed`: a URL with user:pass@ would be shown to every viewer of
 * the config and written to the audit log. `fix` says where the credential belongs instead.
 */
export class UrlCredentialsRefusedError extends UnprocessableError {
  constructor(field: string, fix: string) {
    super('url-credentials-not-allowed', `${field} carries a user name or password (user:pass@host). URLs are shown to every viewer and kept in the audit log; ${fix}`, [
      { location: 'body', path: field, issue: 'url-credentials-not-allowed', message: 'remove the user name and password from the URL' },
    ]);
  }
}

/** Refuses `url` (a body field) when it has userinfo; null and undefined pass. */
export function refuseUrlCredentials(url: string | null | undefined, field: string, fix: string): void {
  if (typeof url === 'string' && hasUrlCredentials(url)) throw new UrlCredentialsRefusedError(field, fix);
}

/** Where an HTTP tool's credential goes. */
export const HTTP_TOOL_CREDENTIAL_FIX = 'put the credential in a secret header instead (secretHeaders, e.g. {"Authorization": "Basic …"}): encrypted and never shown back.';
/** Where a webhook receiver's proof of origin comes from. */
export const WEBHOOK_CREDENTIAL_FIX =
  "receivers authenticate deliveries by their signature instead (the channel's webhook signing secret, docs/webhooks.md), or by a secret path segment.";
/** Where a provider key goes. */
export const PROVIDER_CREDENTIAL_FIX = 'put the key in the credential secret instead.';

// A URL may carry a user name and password (https://user:pass@host/). Stored in a webhook or
// HTTP tool URL they would be shown to every viewer of the config and written to the audit
// log; secret headers (encrypted, write-only) are the place for credentials.

/** What a masked userinfo reads as. */
export const MASKED_USERINFO = '***';

/** True when `text` parses as a URL with a user name or a password. */
export function hasUrlCredentials(text: string): boolean {
  const url = parse(text);
  return url !== undefined && (url.username !== '' || url.password !== '');
}

/**
 * `text` with any user name and password replaced by `***` (https://***@host/); anything
 * that is not a URL with credentials is returned unchanged.
 */
export function maskUrlCredentials(text: string): string {
  const url = parse(text);
  if (url === undefined || (url.username === '' && url.password === '')) return text;
  url.username = MASKED_USERINFO;
  url.password = '';
  return url.toString();
}

function parse(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

import { fetchUtils, HttpError } from 'react-admin';
import { readToken } from './session-store';

/** Base of the admin REST; same origin, as the API serves the console. */
export const API_URL = '/v1/admin';

interface ApiErrorBody {
  error?: { code?: string; message?: string };
}

/**
 * fetchJson with the bearer token, and the API's `{ error: { code, message } }` turned into the
 * HttpError message react-admin shows in its notifications.
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}) {
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  const token = readToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  try {
    return await fetchUtils.fetchJson(url, { ...options, headers });
  } catch (err) {
    if (err instanceof HttpError) {
      const body = err.body as ApiErrorBody | undefined;
      if (body?.error?.message) throw new HttpError(body.error.message, err.status, body);
    }
    throw err;
  }
}

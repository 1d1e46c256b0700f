import { fetchUtils, HttpError } from 'react-admin';
import { clearSession, readToken, saveSession, type ConsoleUser } from './session-store';

/** Base of the admin REST; same origin, as the API serves the console. */
export const API_URL = '/v1/admin';
/** Routes that answer 401 for their own reasons (a wrong password): never refreshed and retried. */
const AUTH_ROUTES = /\/auth\/(login|refresh|logout)$/;

interface ApiErrorBody {
  error?: { code?: string; message?: string };
}

/**
 * fetchJson with the bearer token, and the API's `{ error: { code, message } }` turned into the
 * HttpError message react-admin shows in its notifications. A 401 (the 15-minute access token
 * expired) refreshes the session once through the refresh cookie and retries the request; if
 * the refresh fails too, the 401 goes on to the authProvider, which logs out.
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}) {
  const sentWith = readToken();
  try {
    return await send(url, options, sentWith);
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 401 || AUTH_ROUTES.test(url)) throw err;
    if (!(await refreshSession(sentWith))) throw err;
    return send(url, options, readToken());
  }
}

async function send(url: string, options: fetchUtils.Options, token: string | null) {
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  try {
    return await fetchUtils.fetchJson(url, { ...options, headers, credentials: 'same-origin' });
  } catch (err) {
    if (err instanceof HttpError) {
      const body = err.body as ApiErrorBody | undefined;
      if (body?.error?.message) throw new HttpError(body.error.message, err.status, body);
    }
    throw err;
  }
}

let inFlight: Promise<boolean> | undefined;

/**
 * Trades the refresh cookie for a new access token; true when the console has a fresh one.
 * One refresh at a time in this tab (parallel 401s share it) and across tabs (Web Locks): a
 * refresh token works once, and a second use of it would end the session everywhere. `stale`
 * is the token that was refused: when another tab already replaced it, that one is used.
 */
export function refreshSession(stale: string | null): Promise<boolean> {
  inFlight ??= withLock(async () => {
    const current = readToken();
    if (current && current !== stale) return true;
    const res = await fetch(`${API_URL}/auth/refresh`, { method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (!res.ok) {
      clearSession();
      return false;
    }
    const answer = (await res.json()) as { accessToken: string; user: ConsoleUser };
    saveSession(answer.accessToken, answer.user);
    return true;
  })
    .catch(() => false)
    .finally(() => {
      inFlight = undefined;
    });
  return inFlight;
}

async function withLock(task: () => Promise<boolean>): Promise<boolean> {
  // Web Locks are in every browser the console supports; without them (old ones) the tab alone.
  if (typeof navigator !== 'undefined' && navigator.locks) return await navigator.locks.request('switchboard-refresh', task);
  return task();
}

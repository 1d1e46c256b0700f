import { createSwitchboardClient, type PathsWith } from '@switchboard/client';
import { refreshSession } from './http-client';
import { readToken } from './session-store';
import { withTenantHeader } from './tenant-pick';

// The console's calls go through the typed client generated from the API's OpenAPI document
// (@switchboard/client): a route or field the API stops declaring stops compiling here.

/** Routes that answer 401 for their own reasons (a wrong password): never refreshed and retried. */
const AUTH_ROUTES = /\/auth\/(login|refresh|logout)$/;

/** The bearer token, the picked tenant, and one refresh-and-retry on a 401, as httpClient does. */
async function consoleFetch(request: Request): Promise<Response> {
  const retry = request.clone();
  const sentWith = readToken();
  const res = await send(request, sentWith);
  if (res.status !== 401 || AUTH_ROUTES.test(new URL(request.url).pathname)) return res;
  if (!(await refreshSession(sentWith))) return res;
  return send(retry, readToken());
}

function send(request: Request, token: string | null): Promise<Response> {
  const headers = withTenantHeader(request.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return fetch(new Request(request, { headers, credentials: 'same-origin' }));
}

/** Same origin: the API serves the console. */
export const api = createSwitchboardClient({ baseUrl: window.location.origin, fetch: consoleFetch });

/**
 * The react-admin resources the console lists: each must be a `GET /v1/admin/<name>` the API
 * declares, so removing the route fails `npm run typecheck`.
 */
export type AdminResource = {
  [P in PathsWith<'get'>]: P extends `/v1/admin/${infer Name}` ? (Name extends `${string}/${string}` ? never : Name) : never;
}[PathsWith<'get'>];

export const resource = <R extends AdminResource>(name: R): R => name;

import type { RouteContract } from './route-contracts';

/** Every 4xx and 5xx answer: `{ "error": { code, message, details?, errorId? } }` (all-exceptions.filter.ts). */
export const ERROR_BODY_SCHEMA = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', description: 'Stable, machine-readable kebab-case code (apps/api/README.md lists them).', examples: ['validation-failed'] },
        message: { type: 'string', description: 'What went wrong and what to do, for a person.' },
        details: { description: 'With `validation-failed` and `invalid-characters`: one entry per problem ({ location, path, issue, message }).' },
        errorId: { type: 'string', description: 'With 500: the id of the logged error, to quote to support.' },
      },
    },
  },
} as const;

/** The shared error answers, by status, with the codes each one carries. */
export const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description:
      'The request is wrong and changed nothing: `validation-failed` (details per field), `invalid-json`, `invalid-characters` (text Postgres cannot store), `invalid-url`, or a route-specific code.',
  },
  401: { name: 'Unauthorized', description: 'No credential, or not a valid one: `unauthorized`, `invalid-api-key`, `token-expired`, `invalid-token`, `invalid-signature`.' },
  403: { name: 'Forbidden', description: "The credential may not do this: `forbidden`, `forbidden-role`, `origin-not-allowed`, `tenant-suspended` (a platform admin suspended the tenant), or another tenant's data." },
  404: { name: 'NotFound', description: 'No such resource for this credential (another tenant\'s ids answer the same): `not-found`, `session-not-found`, `route-not-found`.' },
  409: { name: 'Conflict', description: 'The resource is not in a state that allows it: `in-use`, `already-exists`, and route-specific codes.' },
  413: { name: 'PayloadTooLarge', description: '`payload-too-large`: the body is over 128 KB.' },
  415: { name: 'UnsupportedMediaType', description: '`unsupported-media-type`: send `Content-Type: application/json`.' },
  422: { name: 'Unprocessable', description: 'Well-formed but not acceptable as it is (route-specific code, e.g. `publish-blocked`).' },
  429: { name: 'TooManyRequests', description: 'A rate limit or quota: `rate-limited`, `quota-exceeded`, `too-many-attempts`. `Retry-After` says when to try again.' },
  500: { name: 'InternalError', description: '`internal-error`: a bug; `errorId` names the logged error.' },
  502: { name: 'BadGateway', description: 'A system the request called answered wrongly (route-specific code, e.g. `agent-run-failed`).' },
  503: { name: 'ServiceUnavailable', description: 'A dependency is down; nothing was changed: `database-unavailable`, `queue-unavailable`, `stream-unavailable`, `not-ready`.' },
  504: { name: 'GatewayTimeout', description: 'A system the request called did not answer in time (route-specific code, e.g. `agent-run-timeout`).' },
};

const RATE_LIMIT_GUARDS = new Set(['IngestRateLimitGuard', 'IngestQuotaGuard']);

/** The error statuses every route of this kind can answer, whatever its handler does. */
export function standardErrorStatuses(route: RouteContract): number[] {
  const statuses = new Set<number>([400, 500, 503]);
  if (route.auth !== 'public') statuses.add(401);
  // Any credential of a suspended tenant answers 403 `tenant-suspended` (docs/security.md).
  if (route.auth !== 'public') statuses.add(403);
  if (route.path.includes('{')) statuses.add(404);
  if (route.body || ['post', 'put', 'patch'].includes(route.method)) {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.guards.some((g) => RATE_LIMIT_GUARDS.has(g)) || route.auth === 'visitor-token' || route.path.startsWith('/v1/widget/')) statuses.add(429);
  return [...statuses];
}

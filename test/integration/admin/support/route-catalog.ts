import type { UserRole } from '@switchboard/db';
import type { AdminWorld } from './admin-world';

// Every admin route, with the roles allowed on it (the policy of issue 4: platform admins,
// owners and admins manage config; operators read config, sessions, usage and the audit log;
// viewers read). route-matrix.spec.ts checks this table against the controllers' @Roles and
// walks it over HTTP; tenant-matrix.spec.ts walks it with another tenant's ids.

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The slug of the tenant the catalog's POST /v1/admin/tenants would create: a denied call must not. */
export const NEVER_CREATED_TENANT_SLUG = 'matrix-never-created';

/** An id no row has (playground conversations and tests the world does not create). */
const NO_ROW = '00000000-0000-4000-8000-000000000018';

export interface RouteCase {
  method: Method;
  /** The route as declared, with :params. */
  route: string;
  roles: readonly UserRole[];
  /** The concrete URL for a world's ids. */
  url: (w: AdminWorld) => string;
  /** A body that passes validation, so only ownership decides the answer. */
  body?: (w: AdminWorld) => unknown;
}

const ALL: readonly UserRole[] = ['platform_admin', 'owner', 'admin', 'operator', 'viewer'];
const WRITE: readonly UserRole[] = ['platform_admin', 'owner', 'admin'];
const AUDIT: readonly UserRole[] = ['platform_admin', 'owner', 'admin', 'operator'];
const PLATFORM: readonly UserRole[] = ['platform_admin'];

/** A two-day range for the turn-level usage reads. */
const USAGE_RANGE = encodeURIComponent(JSON.stringify({ from: '2026-12-01', to: '2026-12-02' }));

const r = (method: Method, route: string, roles: readonly UserRole[], url: (w: AdminWorld) => string, body?: (w: AdminWorld) => unknown): RouteCase => ({
  method,
  route,
  roles,
  url,
  body,
});

export const ROUTES: readonly RouteCase[] = [
  r('GET', '/v1/admin/auth/me', ALL, () => '/v1/admin/auth/me'),
  r('GET', '/v1/admin/sessions', ALL, () => '/v1/admin/sessions'),
  r('GET', '/v1/admin/sessions/:id', ALL, (w) => `/v1/admin/sessions/${w.session}`),
  r('GET', '/v1/admin/messages', ALL, () => '/v1/admin/messages'),
  r('GET', '/v1/admin/messages/:id', ALL, (w) => `/v1/admin/messages/${w.message}`),
  r('GET', '/v1/admin/turns', ALL, () => '/v1/admin/turns'),
  r('GET', '/v1/admin/turns/:id', ALL, (w) => `/v1/admin/turns/${w.turn}`),
  r('GET', '/v1/admin/stats', ALL, () => '/v1/admin/stats'),
  r('GET', '/v1/admin/tenants', PLATFORM, () => '/v1/admin/tenants'),
  r('GET', '/v1/admin/tenants/:id', PLATFORM, (w) => `/v1/admin/tenants/${w.tenant}`),
  r('POST', '/v1/admin/tenants', PLATFORM, () => '/v1/admin/tenants', () => ({ name: 'x', slug: NEVER_CREATED_TENANT_SLUG })),
  r('PUT', '/v1/admin/tenants/:id', PLATFORM, (w) => `/v1/admin/tenants/${w.tenant}`, () => ({ name: 'renamed' })),
  r('DELETE', '/v1/admin/tenants/:id', PLATFORM, (w) => `/v1/admin/tenants/${w.tenant}`),
  r('GET', '/v1/admin/agents', ALL, () => '/v1/admin/agents'),
  r('GET', '/v1/admin/agents/:id', ALL, (w) => `/v1/admin/agents/${w.agent}`),
  r('GET', '/v1/admin/agent-health', ALL, () => '/v1/admin/agent-health'),
  r('GET', '/v1/admin/agent-health/:id', ALL, (w) => `/v1/admin/agent-health/${w.agent}`),
  r('POST', '/v1/admin/agents', WRITE, () => '/v1/admin/agents', () => ({ name: 'never' })),
  r('PUT', '/v1/admin/agents/:id', WRITE, (w) => `/v1/admin/agents/${w.agent}`, () => ({ name: 'renamed' })),
  r('DELETE', '/v1/admin/agents/:id', WRITE, (w) => `/v1/admin/agents/${w.agent}`),
  r('POST', '/v1/admin/agents/:id/archive', WRITE, (w) => `/v1/admin/agents/${w.agent}/archive`),
  r('POST', '/v1/admin/agents/:id/unarchive', WRITE, (w) => `/v1/admin/agents/${w.agent}/unarchive`),
  r('POST', '/v1/admin/agents/:id/publish', WRITE, (w) => `/v1/admin/agents/${w.agent}/publish`),
  r('POST', '/v1/admin/agents/:id/validate', ALL, (w) => `/v1/admin/agents/${w.agent}/validate`),
  r('GET', '/v1/admin/agents/:id/versions', ALL, (w) => `/v1/admin/agents/${w.agent}/versions`),
  r('GET', '/v1/admin/agents/:id/versions/:version', ALL, (w) => `/v1/admin/agents/${w.agent}/versions/1`),
  r('GET', '/v1/admin/agents/:id/diff', ALL, (w) => `/v1/admin/agents/${w.agent}/diff?from=1&to=draft`),
  r('GET', '/v1/admin/flow-schema', ALL, (w) => `/v1/admin/flow-schema?agentId=${w.agent}`),
  r('POST', '/v1/admin/agents/:id/versions/:version/restore', WRITE, (w) => `/v1/admin/agents/${w.agent}/versions/1/restore`, () => ({})),
  // Safe iteration (issue 18): the playground and conversation tests. A random id stands for rows the world has none of.
  r('POST', '/v1/admin/agents/:id/playground/turns', WRITE, (w) => `/v1/admin/agents/${w.agent}/playground/turns`, () => ({ message: 'oi' })),
  r('GET', '/v1/admin/agents/:id/playground/:playgroundId', ALL, (w) => `/v1/admin/agents/${w.agent}/playground/${NO_ROW}`),
  r('GET', '/v1/admin/agents/:id/tests', ALL, (w) => `/v1/admin/agents/${w.agent}/tests`),
  r('POST', '/v1/admin/agents/:id/tests', WRITE, (w) => `/v1/admin/agents/${w.agent}/tests`, () => ({ name: 'never', from: { playgroundId: NO_ROW } })),
  r('POST', '/v1/admin/agents/:id/tests/run', WRITE, (w) => `/v1/admin/agents/${w.agent}/tests/run`, () => ({})),
  r('GET', '/v1/admin/agents/:id/tests/:testId', ALL, (w) => `/v1/admin/agents/${w.agent}/tests/${NO_ROW}`),
  r('PUT', '/v1/admin/agents/:id/tests/:testId', WRITE, (w) => `/v1/admin/agents/${w.agent}/tests/${NO_ROW}`, () => ({ name: 'renamed' })),
  r('DELETE', '/v1/admin/agents/:id/tests/:testId', WRITE, (w) => `/v1/admin/agents/${w.agent}/tests/${NO_ROW}`),
  r('POST', '/v1/admin/agents/:id/tests/:testId/run', WRITE, (w) => `/v1/admin/agents/${w.agent}/tests/${NO_ROW}/run`, () => ({})),
  r('GET', '/v1/admin/channels', ALL, () => '/v1/admin/channels'),
  r('GET', '/v1/admin/channels/:id', ALL, (w) => `/v1/admin/channels/${w.channel}`),
  r('POST', '/v1/admin/channels', WRITE, () => '/v1/admin/channels', (w) => ({ agentId: w.agent, name: 'never' })),
  r('PUT', '/v1/admin/channels/:id', WRITE, (w) => `/v1/admin/channels/${w.channel}`, () => ({ name: 'renamed' })),
  r('POST', '/v1/admin/channels/:id/rotate-secret', WRITE, (w) => `/v1/admin/channels/${w.channel}/rotate-secret`, () => ({ graceSeconds: 3600 })),
  r('POST', '/v1/admin/channels/:id/test-delivery', WRITE, (w) => `/v1/admin/channels/${w.channel}/test-delivery`),
  r('DELETE', '/v1/admin/channels/:id', WRITE, (w) => `/v1/admin/channels/${w.channel}`),
  r('GET', '/v1/admin/api-keys', ALL, () => '/v1/admin/api-keys'),
  r('GET', '/v1/admin/api-keys/:id', ALL, (w) => `/v1/admin/api-keys/${w.apiKey}`),
  r('POST', '/v1/admin/api-keys', WRITE, () => '/v1/admin/api-keys', (w) => ({ channelId: w.channel })),
  r('DELETE', '/v1/admin/api-keys/:id', WRITE, (w) => `/v1/admin/api-keys/${w.apiKey}`),
  r('GET', '/v1/admin/provider-credentials', ALL, () => '/v1/admin/provider-credentials'),
  r('GET', '/v1/admin/provider-credentials/:id', ALL, (w) => `/v1/admin/provider-credentials/${w.credential}`),
  r('POST', '/v1/admin/provider-credentials', WRITE, () => '/v1/admin/provider-credentials', () => ({ name: 'never', kind: 'openai', secret: 'sk-never-stored' })),
  r('PUT', '/v1/admin/provider-credentials/:id', WRITE, (w) => `/v1/admin/provider-credentials/${w.credential}`, () => ({ name: 'renamed' })),
  r('DELETE', '/v1/admin/provider-credentials/:id', WRITE, (w) => `/v1/admin/provider-credentials/${w.credential}`),
  r('GET', '/v1/admin/tools', ALL, () => '/v1/admin/tools'),
  r('GET', '/v1/admin/tools/:id', ALL, (w) => `/v1/admin/tools/${w.httpTool}`),
  r('GET', '/v1/admin/http-tools', ALL, () => '/v1/admin/http-tools'),
  r('GET', '/v1/admin/http-tools/:id', ALL, (w) => `/v1/admin/http-tools/${w.httpTool}`),
  r('POST', '/v1/admin/http-tools', WRITE, () => '/v1/admin/http-tools', () => ({ toolId: 'never_created', url: 'https://example.test/x' })),
  r('PUT', '/v1/admin/http-tools/:id', WRITE, (w) => `/v1/admin/http-tools/${w.httpTool}`, () => ({ timeoutMs: 1000 })),
  r('DELETE', '/v1/admin/http-tools/:id', WRITE, (w) => `/v1/admin/http-tools/${w.httpTool}`),
  r('POST', '/v1/admin/http-tools/:id/test', WRITE, (w) => `/v1/admin/http-tools/${w.httpTool}/test`, () => ({ arguments: {} })),
  r('GET', '/v1/admin/users', ALL, () => '/v1/admin/users'),
  r('GET', '/v1/admin/users/:id', ALL, (w) => `/v1/admin/users/${w.user}`),
  r('POST', '/v1/admin/users', WRITE, () => '/v1/admin/users', () => ({ email: 'never@example.test', role: 'viewer', password: 'long enough password' })),
  r('PUT', '/v1/admin/users/:id', WRITE, (w) => `/v1/admin/users/${w.user}`, () => ({ name: 'renamed' })),
  r('DELETE', '/v1/admin/users/:id', WRITE, (w) => `/v1/admin/users/${w.user}`),
  r('GET', '/v1/admin/usage', ALL, () => '/v1/admin/usage'),
  r('GET', '/v1/admin/usage/summary', ALL, () => '/v1/admin/usage/summary'),
  r('GET', '/v1/admin/usage/quota', ALL, () => '/v1/admin/usage/quota'),
  r('GET', '/v1/admin/usage/failures', ALL, () => '/v1/admin/usage/failures'),
  // The console's first run and live dashboard (issue 22).
  r('GET', '/v1/admin/usage/latency', ALL, () => `/v1/admin/usage/latency?filter=${USAGE_RANGE}`),
  r('GET', '/v1/admin/usage/channels', ALL, () => `/v1/admin/usage/channels?filter=${USAGE_RANGE}`),
  r('GET', '/v1/admin/first-steps', ALL, () => '/v1/admin/first-steps'),
  r('GET', '/v1/admin/agent-templates', ALL, () => '/v1/admin/agent-templates'),
  // Cost (issue 25): everyone reads cost and prices; only platform admins set prices.
  r('GET', '/v1/admin/usage-cost', ALL, () => '/v1/admin/usage-cost?by=agent'),
  r('GET', '/v1/admin/usage-cost/export', ALL, () => '/v1/admin/usage-cost/export'),
  r('GET', '/v1/admin/model-prices', ALL, () => '/v1/admin/model-prices'),
  r('GET', '/v1/admin/model-prices/:id', ALL, (w) => `/v1/admin/model-prices/${w.modelPrice}`),
  r('POST', '/v1/admin/model-prices', PLATFORM, () => '/v1/admin/model-prices', () => ({ provider: 'openai', model: 'never-priced', input: '1', cachedInput: '0.5', output: '2' })),
  r('PUT', '/v1/admin/model-prices/:id', PLATFORM, (w) => `/v1/admin/model-prices/${w.modelPrice}`, () => ({ source: 'edited' })),
  r('DELETE', '/v1/admin/model-prices/:id', PLATFORM, (w) => `/v1/admin/model-prices/${w.modelPrice}`),
  r('GET', '/v1/admin/tenant-model-prices', ALL, () => '/v1/admin/tenant-model-prices'),
  r('GET', '/v1/admin/tenant-model-prices/:id', ALL, (w) => `/v1/admin/tenant-model-prices/${w.tenantPrice}`),
  r('POST', '/v1/admin/tenant-model-prices', PLATFORM, () => '/v1/admin/tenant-model-prices', () => ({ provider: 'openai', model: 'never-priced', input: '1', cachedInput: '0.5', output: '2' })),
  r('PUT', '/v1/admin/tenant-model-prices/:id', PLATFORM, (w) => `/v1/admin/tenant-model-prices/${w.tenantPrice}`, () => ({ source: 'edited' })),
  r('DELETE', '/v1/admin/tenant-model-prices/:id', PLATFORM, (w) => `/v1/admin/tenant-model-prices/${w.tenantPrice}`),
  r('GET', '/v1/admin/audit-log', AUDIT, () => '/v1/admin/audit-log'),
  r('GET', '/v1/admin/audit-log/:id', AUDIT, (w) => `/v1/admin/audit-log/${w.audit}`),
  // Operations (issue 5): operators and up; viewers see none of it.
  r('GET', '/v1/admin/deliveries', AUDIT, () => '/v1/admin/deliveries'),
  r('GET', '/v1/admin/deliveries/:id', AUDIT, (w) => `/v1/admin/deliveries/${w.delivery}`),
  r('POST', '/v1/admin/deliveries/:id/redrive', AUDIT, (w) => `/v1/admin/deliveries/${w.delivery}/redrive`),
  r('GET', '/v1/admin/dead-letters', AUDIT, () => '/v1/admin/dead-letters'),
  r('POST', '/v1/admin/dead-letters/:id/redrive', AUDIT, (w) => `/v1/admin/dead-letters/${w.deadLetter}/redrive`),
  r('GET', '/v1/admin/queues', AUDIT, () => '/v1/admin/queues'),
  r('POST', '/v1/admin/sessions/:id/hand-back', AUDIT, (w) => `/v1/admin/sessions/${w.session}/hand-back`),
  // The inbox (issue 22): everyone reads it, operators and up act on it, like hand-back.
  r('GET', '/v1/admin/inbox', ALL, () => '/v1/admin/inbox'),
  r('GET', '/v1/admin/inbox/:id', ALL, (w) => `/v1/admin/inbox/${w.session}`),
  r('POST', '/v1/admin/inbox/:id/take-over', AUDIT, (w) => `/v1/admin/inbox/${w.session}/take-over`),
  r('POST', '/v1/admin/inbox/:id/replies', AUDIT, (w) => `/v1/admin/inbox/${w.session}/replies`, () => ({ text: 'hello' })),
  r('POST', '/v1/admin/inbox/:id/notes', AUDIT, (w) => `/v1/admin/inbox/${w.session}/notes`, () => ({ text: 'a note' })),
  r('POST', '/v1/admin/inbox/:id/read', AUDIT, (w) => `/v1/admin/inbox/${w.session}/read`),
];

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateApiKey, type PrismaClient } from '@switchboard/db';
import { createUser, openDb, PASSWORD } from '../../integration/admin/support/admin-fixtures';
import { createAdminWorld, tenantSnapshot, type AdminWorld } from '../../integration/admin/support/admin-world';
import { createWidgetChannel } from '../../support/widget';
import { ROUTES } from '../../integration/admin/support/route-catalog';
import { routeContracts, takesNoBody } from '../../../apps/api/src/docs/route-contracts';
import type { FuzzTarget, RouteReport } from './fuzz';
import { declaredRoutes, loginInProcess, startInProcessApi, type DeclaredRoute, type InProcessApi } from './in-process-api';

// What the fuzz specs share: the in-process API, a tenant with one row of everything (A) whose
// owner makes the requests, a second tenant (B) whose ids must behave as absent, and the
// targets derived from the app's own routes.

export interface FuzzWorld {
  api: InProcessApi;
  db: PrismaClient;
  a: AdminWorld;
  b: AdminWorld;
  targets: FuzzTarget[];
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

const PUBLIC_BODIES: Record<string, Record<string, unknown>> = {
  'POST /v1/messages': { session: 'fuzz-session', text: 'hello' },
  'POST /v1/widget/:publicId/sessions': {},
  'POST /v1/widget/:publicId/messages': { id: 'fuzz-message-1', text: 'hello' },
  'POST /v1/widget/:publicId/identify': { name: 'Fuzz' },
  'POST /v1/events': { session: 'fuzz-session', event: 'fuzz.event', key: 'fuzz-key' },
  'POST /v1/sessions/:sessionId/start': { flow: 'fuzz-flow', key: 'fuzz-key' },
};

/** Writes that change nothing whatever they are sent: validating a draft, logging out without a refresh cookie. */
const MAY_ACCEPT = new Set(['POST /v1/admin/agents/:id/validate', 'POST /v1/admin/auth/logout']);

/**
 * Writes whose body is optional (a restore makes the version the draft; a rotate-secret keeps the
 * old secret for the default grace), read from the schemas the routes validate with, as the
 * OpenAPI document's `requestBody.required` is: sent with none, they act.
 */
function writesTakingNoBody(api: InProcessApi): Set<string> {
  return new Set(routeContracts(api.app).filter((c) => c.body && takesNoBody(c)).map((c) => `${c.method.toUpperCase()} ${c.path.replace(/\{(\w+)\}/g, ':$1')}`));
}

/** Real param values for a declared admin route, read from the catalog's URL for world `w`. */
function catalogParams(route: DeclaredRoute, w: AdminWorld): { params: Record<string, string>; query?: string; body?: Record<string, unknown> } {
  const c = ROUTES.find((r) => r.method === route.method && r.route === route.path);
  if (!c) return { params: {} };
  const [pathname, query] = c.url(w).split('?');
  const declared = route.path.split('/');
  const concrete = pathname.split('/');
  const params: Record<string, string> = {};
  declared.forEach((seg, i) => {
    if (seg.startsWith(':')) params[seg.slice(1)] = concrete[i];
  });
  return { params, query, body: c.body?.(w) as Record<string, unknown> | undefined };
}

export async function createFuzzWorld(): Promise<FuzzWorld> {
  const db = openDb();
  const [a, b] = await Promise.all([createAdminWorld(db), createAdminWorld(db)]);
  const key = generateApiKey();
  await db.apiKey.create({ data: { tenantId: a.tenant, channelId: a.channel, prefix: key.prefix, keyHash: key.hash, name: 'fuzz' } });
  const owner = await createUser(db, 'owner', a.tenant);
  const platform = await createUser(db, 'platform_admin', null);
  // A widget on each tenant, open to the origin the fuzzer sometimes sends, and a visitor of A's.
  const widgetOrigin = 'http://localhost:5173';
  const [widgetA, widgetB] = await Promise.all([
    createWidgetChannel(db, a.tenant, a.agent, { allowedOrigins: [widgetOrigin] }),
    createWidgetChannel(db, b.tenant, b.agent, { allowedOrigins: [widgetOrigin] }),
  ]);
  const api = await startInProcessApi({ WIDGET_SESSIONS_PER_ADDRESS_PER_HOUR: '1000000', WIDGET_MESSAGES_PER_VISITOR_PER_MINUTE: '10000' });
  const visitorToken = (await api.inject({ method: 'POST', url: `/v1/widget/${widgetA.publicId}/sessions`, headers: { origin: widgetOrigin }, payload: {} })).json<{ token: string }>().token;
  const ownerToken = await loginInProcess(api, owner.email, PASSWORD);
  const platformToken = await loginInProcess(api, platform.email, PASSWORD);
  // Logout ends the bearer token's session: the auth routes get a token of their own.
  const throwawayToken = await loginInProcess(api, (await createUser(db, 'viewer', a.tenant)).email, PASSWORD);

  const noBody = writesTakingNoBody(api);
  const targets = declaredRoutes(api.app).map((route): FuzzTarget => {
    if (route.path.startsWith('/v1/admin')) {
      const mine = catalogParams(route, a);
      const theirs = catalogParams(route, b);
      const isTenants = route.path.startsWith('/v1/admin/tenants');
      return {
        route,
        credential: isTenants ? platformToken : route.path.startsWith('/v1/admin/auth/') ? throwawayToken : ownerToken,
        params: mine.params,
        foreignParams: isTenants ? undefined : theirs.params,
        validQuery: mine.query,
        validBody: route.path === '/v1/admin/auth/login' ? { email: owner.email, password: PASSWORD } : mine.body,
        mayAccept: MAY_ACCEPT.has(`${route.method} ${route.path}`),
        noBodyIsValid: noBody.has(`${route.method} ${route.path}`),
      };
    }
    if (route.path.startsWith('/v1/widget/')) {
      return {
        route,
        credential: visitorToken,
        params: { publicId: widgetA.publicId },
        foreignParams: { publicId: widgetB.publicId },
        validBody: PUBLIC_BODIES[`${route.method} ${route.path}`],
        // A stream stays open by design; identify accepts any well-formed key, so a case that
        // adds one would be a valid write: both get only ids that must behave as absent.
        hostileIdsOnly: route.path.endsWith('/stream') || route.path.endsWith('/identify'),
        // Asking for a visitor token changes no row (the snapshot checks it); any widget id is public.
        mayAccept: route.path.endsWith('/sessions'),
      };
    }
    const isChannel = route.path.startsWith('/v1/');
    return {
      route,
      credential: isChannel ? key.key : ownerToken,
      params: { sessionId: a.session },
      foreignParams: { sessionId: b.session },
      validBody: PUBLIC_BODIES[`${route.method} ${route.path}`],
      // A stream on a real session stays open by design; only absent ones answer at once.
      hostileIdsOnly: route.path.endsWith('/stream'),
    };
  });

  const snapshot = async () => `${await tenantSnapshot(db, a.tenant)}\n${await tenantSnapshot(db, b.tenant)}`;
  return {
    api,
    db,
    a,
    b,
    targets,
    snapshot,
    close: async () => {
      await api.close();
      await db.$disconnect();
    },
  };
}

/** Prints the figures and keeps them in .tmp/ for docs/security.md. */
export function recordReports(name: string, reports: RouteReport[]): void {
  const total = reports.reduce((n, r) => n + r.cases, 0);
  const fivexx = reports.reduce((n, r) => n + r.serverErrors.length, 0);
  const dir = path.join(__dirname, '..', '..', '..', '.tmp');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `security-${name}.json`), JSON.stringify({ at: new Date().toISOString(), routes: reports.length, total, fivexx, reports }, null, 2));
  process.stdout.write(`[security] ${name}: ${reports.length} routes, ${total} cases, ${fivexx} 5xx, min ${Math.min(...reports.map((r) => r.cases))} per route\n`);
}

import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import type { DeclaredRoute, InProcessApi } from './in-process-api';
import { hostileAuth, hostileContentType, hostileId, hostileQuery, hostileValue, otherTypeThan, rawBadBody, unknownKey, type Headers } from './hostile';

// The property every route must keep under hostile input: no 5xx (and no crash), every error in
// the `{ error: { code, message } }` shape, and no write route accepting what it was sent.

// `npm test` runs 120 cases per route (enough for every class of hostile input the
// generators know, on every route); `npm run fuzz` runs the full 2,000 per route.
export const CASES_PER_ROUTE = Number(process.env.FUZZ_CASES_PER_ROUTE ?? 120);

export interface FuzzTarget {
  route: DeclaredRoute;
  /** The bearer credential a well-behaved caller would send (admin token or channel API key). */
  credential: string;
  /** Real values for the path params (the caller's own rows); missing → only hostile values. */
  params: Record<string, string>;
  /** A body this route accepts; fuzz cases always break it (a write must never succeed). */
  validBody?: Record<string, unknown>;
  /** Query a read needs to succeed (e.g. the diff's from/to). */
  validQuery?: string;
  /** Another tenant's ids, which must behave as absent. */
  foreignParams?: Record<string, string>;
  /** Only hostile ids, never the real one (e.g. a stream that would stay open). */
  hostileIdsOnly?: boolean;
  /** A write that may answer 2xx to anything because it changes nothing without a credential of its own (logout). */
  mayAccept?: boolean;
  /** A request with no body at all is a valid call of this write (a restore without options), so no case sends one to its real ids. */
  noBodyIsValid?: boolean;
}

export interface FuzzCase {
  url: string;
  method: string;
  headers: Headers;
  payload?: string | Buffer;
}

export interface RouteReport {
  route: string;
  cases: number;
  statuses: Record<number, number>;
  serverErrors: string[];
  badShape: string[];
  acceptedWrites: string[];
}

const isWrite = (r: DeclaredRoute) => r.method !== 'GET';
const paramNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => values[name]);
}

/** Path params: the real ones, hostile ones, or another tenant's. */
function paramsArb(t: FuzzTarget, allowReal: boolean): fc.Arbitrary<Record<string, string>> {
  const names = paramNames(t.route.path);
  const one = (name: string) => {
    const choices: fc.Arbitrary<string>[] = [hostileId];
    if (allowReal && t.params[name] && !t.hostileIdsOnly) choices.push(fc.constant(t.params[name]));
    if (t.foreignParams?.[name]) choices.push(fc.constant(t.foreignParams[name]));
    return fc.oneof(...choices);
  };
  return fc.record(Object.fromEntries(names.map((n) => [n, one(n)]))) as fc.Arbitrary<Record<string, string>>;
}

/** `base` with one key's value replaced by a value of another JSON type. */
function wrongTypeArb(base: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.constantFrom(...Object.keys(base)).chain((k) => otherTypeThan(base[k]).map((v) => ({ ...base, [k]: v })));
}

/**
 * A body the route must refuse: not JSON, not an object, an unknown key, or a wrong type.
 * Creates (POST) are strict, so an unknown key alone must fail; updates (PUT) drop unknown
 * keys by design (react-admin sends the whole record back), so there it rides on a wrong type.
 */
function invalidBodyArb(valid: Record<string, unknown> | undefined, method: string): fc.Arbitrary<string | Buffer> {
  const base = valid ?? {};
  const hasKeys = Object.keys(base).length > 0;
  const strict = method === 'POST' || !hasKeys;
  const withUnknownKey = fc.tuple(strict ? fc.constant(base) : wrongTypeArb(base), unknownKey, hostileValue).map(([b, k, v]) => {
    // Built as JSON text so `__proto__` arrives as an own key, as a hostile client sends it.
    const extra = `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`;
    const rest = JSON.stringify(b).slice(1, -1);
    return `{${rest ? `${rest},` : ''}${extra}}`;
  });
  const options: fc.Arbitrary<string | Buffer>[] = [rawBadBody, withUnknownKey];
  if (hasKeys) options.push(wrongTypeArb(base).map((b) => JSON.stringify(b)));
  return fc.oneof(...options);
}

const extraHeaders: fc.Arbitrary<Headers> = fc.record(
  {
    'x-request-id': fc.oneof(fc.constant('a'.repeat(5000)), fc.constantFrom('../x', '"><script>', '\\u0000', 'req-1')),
    origin: fc.constantFrom('https://evil.example', 'null', 'http://localhost:5173'),
    'x-forwarded-for': fc.constantFrom('127.0.0.1, 10.0.0.1', 'not-an-ip', '::1'),
    accept: fc.constantFrom('text/html', '*/*', 'application/xml', 'application/json;q=0'),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', 'x'),
  },
  { requiredKeys: [] },
);

function caseArb(t: FuzzTarget): fc.Arbitrary<FuzzCase> {
  const auth = hostileAuth(t.credential);
  if (!isWrite(t.route)) {
    return fc
      .record({ params: paramsArb(t, true), query: hostileQuery, keepValidQuery: fc.boolean(), auth, extra: extraHeaders })
      .map(({ params, query, keepValidQuery, auth: a, extra }) => {
        const q = [keepValidQuery ? t.validQuery : undefined, query].filter(Boolean).join('&');
        return { method: 'GET', url: fillPath(t.route.path, params) + (q ? `?${q}` : ''), headers: { ...extra, ...a } };
      });
  }
  // A write gets its real ids only together with a body it must refuse; any body goes to
  // hostile or foreign ids (absent rows). Routes without a known body only get the latter.
  const withRealIds = t.validBody || paramNames(t.route.path).length === 0
    ? fc.record({ params: paramsArb(t, true), payload: invalidBodyArb(t.validBody, t.route.method), realIds: fc.constant(true) })
    : undefined;
  const withHostileIds =
    paramNames(t.route.path).length > 0
      ? fc.record({
          params: paramsArb(t, false),
          payload: fc.oneof(invalidBodyArb(t.validBody, t.route.method), fc.constant(JSON.stringify(t.validBody ?? {})), fc.constant(undefined)),
          realIds: fc.constant(false),
        })
      : undefined;
  const shaped = [withRealIds, withHostileIds].filter((a): a is NonNullable<typeof a> => a !== undefined);
  return fc
    .record({ shape: fc.oneof(...shaped), query: fc.oneof(fc.constant(''), hostileQuery), auth, contentType: hostileContentType, extra: extraHeaders })
    // An empty payload is no body: without a content type, and as plain text too (the text parser
    // reads '', as a client that always sends its Content-Type would): to such a route's real
    // ids, a valid request (a rotate-secret answered 200 to `text/plain` and no bytes).
    .filter(({ shape }) => !(t.noBodyIsValid && shape.realIds && shape.payload?.length === 0))
    .map(({ shape, query, auth: a, contentType, extra }) => ({
      method: t.route.method,
      url: fillPath(t.route.path, shape.params) + (query ? `?${query}` : ''),
      headers: { ...extra, ...(shape.payload !== undefined ? contentType : {}), ...a },
      payload: shape.payload,
    }));
}

function describeCase(c: FuzzCase, res: LightMyRequestResponse): string {
  const payload = c.payload === undefined ? '' : ` body=${String(c.payload).slice(0, 200)}`;
  return `${c.method} ${c.url.slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 300)}${payload}`;
}

function hasErrorShape(res: LightMyRequestResponse): boolean {
  try {
    const body = res.json() as { error?: { code?: unknown; message?: unknown } };
    return typeof body.error?.code === 'string' && typeof body.error.message === 'string';
  } catch {
    return false;
  }
}

/** Requests in flight at once: the database round trips of one overlap the parsing of others. */
const CONCURRENCY = 8;

/**
 * Runs CASES_PER_ROUTE hostile cases against one route and reports what came back. Each
 * fast-check run sends one request; up to CONCURRENCY of them are in flight at a time, and
 * every failure is collected (not just the first), so the report lists them all.
 */
export async function fuzzRoute(api: InProcessApi, t: FuzzTarget, seed?: number): Promise<RouteReport> {
  const report: RouteReport = { route: `${t.route.method} ${t.route.path}`, cases: 0, statuses: {}, serverErrors: [], badShape: [], acceptedWrites: [] };
  const check = async (c: FuzzCase) => {
    const res = await api.inject({ method: c.method as 'GET', url: c.url, headers: c.headers, payload: c.payload });
    report.cases++;
    report.statuses[res.statusCode] = (report.statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 500) report.serverErrors.push(describeCase(c, res));
    else if (res.statusCode >= 400 && !hasErrorShape(res)) report.badShape.push(describeCase(c, res));
    else if (res.statusCode < 400 && isWrite(t.route) && !t.mayAccept) report.acceptedWrites.push(describeCase(c, res));
  };
  const inFlight = new Set<Promise<void>>();
  await fc.assert(
    fc.asyncProperty(caseArb(t), async (c) => {
      while (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
      const p: Promise<void> = check(c).finally(() => inFlight.delete(p));
      inFlight.add(p);
      return true;
    }),
    { numRuns: CASES_PER_ROUTE, seed },
  );
  await Promise.all(inFlight);
  return report;
}

import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

// Every HTTP answer the integration suite gets from an API process is checked against the
// OpenAPI document that process serves at /docs-json: the status must be declared for that
// method and path, and a JSON body must match the declared schema. A mismatch fails the test
// that made the request (afterEach below). Installed for the whole integration project by
// jest.config.js (setupFilesAfterEnv); the browser suites feed it what their pages receive
// (test/browser/support/browser-answers.ts). docs/api-contract.md lists what is not checked.

type Json = Record<string, unknown>;
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
  components?: { responses?: Record<string, Json>; schemas?: Record<string, Json> };
}

interface Contract {
  document: OpenApiDocument;
  ajv: Ajv2020;
  routes: { template: string; pattern: RegExp }[];
  compiled: Map<string, ValidateFunction>;
}

/** Any absolute URI names the document's components for ajv; nothing is fetched from it. */
const DOCUMENT_ID = 'https://switchboard.invalid/openapi.json';
const originalFetch = globalThis.fetch;
const contracts = new Map<string, Promise<Contract>>();
const mismatches: string[] = [];

/** Mismatches found so far and not yet reported (for the suite's own test of this hook). */
export function takeMismatches(): string[] {
  return mismatches.splice(0);
}

function apiOrigin(url: URL): { origin: string; metrics: boolean } | null {
  const shared = process.env.TEST_API_URL ? new URL(process.env.TEST_API_URL).origin : undefined;
  const metrics = process.env.TEST_API_METRICS_URL ? new URL(process.env.TEST_API_METRICS_URL).origin : undefined;
  if (url.origin === shared || startedApiOrigins().has(url.origin)) return { origin: url.origin, metrics: false };
  if (metrics && url.origin === metrics && shared) return { origin: shared, metrics: true };
  return null;
}

/** APIs a test file started itself (startApi records them). */
function startedApiOrigins(): Set<string> {
  return (globalThis as { __SB_API_ORIGINS__?: Set<string> }).__SB_API_ORIGINS__ ?? new Set();
}

function contractOf(origin: string): Promise<Contract> {
  let contract = contracts.get(origin);
  if (!contract) {
    contract = loadContract(origin);
    contracts.set(origin, contract);
  }
  return contract;
}

/**
 * The document of the API that answered. An API a test has just stopped (the shutdown tests)
 * cannot serve it any more; every API process of a run is the same build and serves the same
 * document, so the shared API's stands in.
 */
async function fetchDocument(origin: string): Promise<Response> {
  try {
    return await originalFetch(`${origin}/docs-json`);
  } catch (err) {
    const shared = process.env.TEST_API_URL ? new URL(process.env.TEST_API_URL).origin : undefined;
    if (!shared || shared === origin) throw err;
    return originalFetch(`${shared}/docs-json`);
  }
}

async function loadContract(origin: string): Promise<Contract> {
  const res = await fetchDocument(origin);
  if (res.status !== 200) throw new Error(`answer validation: ${origin}/docs-json answered ${res.status}`);
  const document = (await res.json()) as OpenApiDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components ?? {} });
  // Literal segments win over parameters (/agents/{id}/tests/run before /agents/{id}/tests/{testId}).
  const params = (template: string) => (template.match(/\{/g) ?? []).length;
  const routes = Object.keys(document.paths)
    .sort((x, y) => params(x) - params(y))
    .map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`),
  }));
  return { document, ajv, routes, compiled: new Map() };
}

/** `#/components/...` inside a response schema, read from the document's own components. */
function anchored(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(anchored);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOCUMENT_ID}${v}` : anchored(v)]),
  );
}

function resolveResponse(document: OpenApiDocument, response: Json): Json {
  const ref = response.$ref;
  if (typeof ref === 'string') return document.components?.responses?.[ref.split('/').pop()!] ?? {};
  return response;
}

/** One HTTP answer, from `fetch` or from a browser page (test/browser/support/browser-answers.ts). */
export interface SeenAnswer {
  status: number;
  /** The Content-Type header, or null. */
  contentType: string | null;
  /**
   * The body as text, read only when the document declares a JSON schema for it; null when it can
   * no longer be read (a browser page closed before its answer's body arrived).
   */
  text: () => Promise<string | null>;
}

async function check(method: string, url: URL, res: SeenAnswer, metrics: boolean, origin: string): Promise<string | null> {
  const contract = await contractOf(origin);
  const path = metrics ? url.pathname : url.pathname.replace(/\/+$/, '') || '/';
  // The first template that matches and declares the method (/channels/whatsapp/{id} is GET only,
  // /channels/{kind}/{id} takes the POSTs).
  const matching = contract.routes.filter((r) => r.pattern.test(path));
  const route = matching.find((r) => contract.document.paths[r.template][method.toLowerCase()]) ?? matching[0];
  const where = `${method} ${url.pathname}${url.search} → ${res.status}`;
  // /metrics lives on its own port: the API's port answers it 404 route-not-found.
  if (route?.template === '/metrics' && !metrics && res.status === 404) return null;
  if (!route) {
    // Static files (the console at /admin, the widget's scripts, the docs UI) are not API routes;
    // an unknown API path answers 404 route-not-found, which every client must expect.
    if (!/^\/(v1|health)(\/|$)/.test(path) || res.status === 404) return null;
    return `${where}: the path is not in the OpenAPI document`;
  }
  const operation = contract.document.paths[route.template][method.toLowerCase()];
  if (!operation) return res.status === 404 ? null : `${where}: ${method} is not declared for ${route.template}`;
  const declared = operation.responses[String(res.status)] ?? operation.responses.default;
  if (!declared) return `${where}: status ${res.status} is not declared for ${method} ${route.template} (declared: ${Object.keys(operation.responses).join(', ')})`;
  const response = resolveResponse(contract.document, declared);
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  const type = (res.contentType ?? '').split(';')[0].trim();
  if (!content || res.status === 204 || method === 'HEAD') return null;
  if (!type) return `${where}: no Content-Type, the document declares ${Object.keys(content).join(', ')}`;
  const media = content[type];
  if (!media) return `${where}: Content-Type ${type} is not declared (declared: ${Object.keys(content).join(', ')})`;
  if (type !== 'application/json' || !media.schema) return null;
  const text = await res.text();
  if (text === null) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where}: the body is not JSON: ${text.slice(0, 200)}`;
  }
  const key = `${method} ${route.template} ${res.status}`;
  let validate = contract.compiled.get(key);
  if (!validate) {
    validate = contract.ajv.compile(anchored(media.schema) as Json);
    contract.compiled.set(key, validate);
  }
  if (validate(body)) return null;
  const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  return `${where}: the body does not match the document: ${problems.join('; ')}\n  body: ${text.slice(0, 500)}`;
}

/**
 * Checks one answer when an API process of this run gave it (other origins, CORS preflights and the
 * docs are skipped); a mismatch is kept for the test's afterEach. Browser suites call it for what
 * their pages receive.
 */
export async function checkAnswer(method: string, url: URL, answer: SeenAnswer): Promise<void> {
  const api = apiOrigin(url);
  // OPTIONS is the browsers' CORS preflight, answered by the CORS plugin before any route.
  if (!api || method === 'OPTIONS' || url.pathname.startsWith('/docs')) return;
  const problem = await check(method, url, answer, api.metrics, api.origin).catch((err: unknown) => `${method} ${url.pathname}: answer validation failed: ${String(err)}`);
  if (problem) mismatches.push(problem);
}

globalThis.fetch = async function validatingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const res = await originalFetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  await checkAnswer(method, url, { status: res.status, contentType: res.headers.get('content-type'), text: () => res.clone().text() });
  return res;
} as typeof fetch;

const pending = new Set<Promise<void>>();

/** Checks an answer whose body arrives later (a browser's); the test's afterEach waits for it. */
export function checkAnswerLater(method: string, url: URL, answer: SeenAnswer): void {
  const done: Promise<void> = checkAnswer(method, url, answer).finally(() => pending.delete(done));
  pending.add(done);
}

afterEach(async () => {
  await Promise.all([...pending]);
  const found = takeMismatches();
  if (found.length) throw new Error(`The API answered outside its OpenAPI document (docs/api-contract.md):\n- ${found.join('\n- ')}`);
});

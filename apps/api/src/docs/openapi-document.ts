import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { webhooksOpenApi } from '@switchboard/webhooks';
import { TENANT_HEADER } from '../admin/auth/acting-tenant';
import { ERROR_BODY_SCHEMA, ERROR_RESPONSES, standardErrorStatuses } from './error-responses';
import { routeContracts, takesNoBody, type RouteAuth, type RouteContract } from './route-contracts';
import { ZodSchemaConverter, type JsonSchema } from './zod-schema';

type Operation = Record<string, unknown> & {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: unknown; examples?: unknown; example?: unknown }> } & Record<string, unknown>;
  responses?: Record<string, Record<string, unknown>>;
  tags?: string[];
};
interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: unknown;
}

const TAGS: Record<string, string> = {
  channel: 'A channel posts its customers\' messages and reads replies with its API key (docs/channels.md).',
  'channel adapters': 'Where messaging platforms (Telegram, WhatsApp, Slack, Chatwoot) call; each is verified with the platform\'s own signature.',
  widget: 'The web widget\'s routes: a visitor token for an allowed page origin, then the visitor\'s own conversation (docs/widget.md).',
  'console admin': 'The console\'s API (react-admin simple-REST dialect: sort, range, filter; total in Content-Range). docs/admin-api.md.',
  health: 'Liveness and readiness probes for orchestrators.',
  metrics: 'Prometheus metrics, on their own port (API_METRICS_PORT).',
  webhooks: 'Events POSTed to a channel\'s webhook URL (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers).',
};

const SECURITY_SCHEMES = {
  channelApiKey: { type: 'http', scheme: 'bearer', description: 'A channel\'s API key (`sb_live_...`, an opaque secret made in the console), as `Authorization: Bearer <key>`.' },
  consoleAccessToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The console\'s 15-minute access token from POST /v1/admin/auth/login or /refresh, as `Authorization: Bearer <token>`.',
  },
  consoleRefreshCookie: { type: 'apiKey', in: 'cookie', name: 'sb_refresh', description: 'The HttpOnly refresh cookie login sets; refresh and logout read it.' },
  widgetVisitorToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The widget\'s visitor token from POST /v1/widget/{publicId}/sessions (opaque), as `Authorization: Bearer <token>`.',
  },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when the deployment sets one.' },
  webhookSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'webhook-signature',
    description:
      'Sent BY Switchboard to a channel\'s webhook URL: `v1,<base64 HMAC-SHA256>` of `webhook-id.webhook-timestamp.body` with the channel\'s webhook secret (Standard Webhooks; docs/webhooks.md). Verify it before trusting the event.',
  },
} as const;

/**
 * Relative: the API that serves this document at /docs-json, whatever its origin. An exported copy
 * (libs/client/openapi.json) is used with the deployment's origin as the client's base URL.
 */
const SERVERS = [{ url: '/', description: 'The API that serves this document (/docs-json)' }];

const SECURITY_BY_AUTH: Record<Exclude<RouteAuth, 'public'>, string> = {
  'channel-key': 'channelApiKey',
  'console-token': 'consoleAccessToken',
  'visitor-token': 'widgetVisitorToken',
};

/** Public routes whose credential is the refresh cookie. */
const COOKIE_ROUTES = new Set(['post /v1/admin/auth/refresh', 'post /v1/admin/auth/logout']);

/**
 * The API's OpenAPI 3.1 document, built from the running app: routes, their zod schemas
 * (the ZodValidationPipes requests go through), guards and @Api* decorators. Served at
 * /docs-json; exported by scripts and linted and checked against every answer in the tests.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const zod = new ZodSchemaConverter();
  const { webhooks, schemas: webhookSchemas } = webhooksOpenApi();
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Switchboard API')
    .setDescription(
      'Channels post customer messages with their API key; the console manages tenants with a login token; the web widget talks with a visitor token. ' +
        'Every error is `{ "error": { code, message, details? } }`. Replies and other events reach a channel\'s webhook URL as the `webhooks` ' +
        'below, signed the Standard Webhooks way (docs/webhooks.md). How this document is built and checked: docs/api-contract.md.',
    )
    .setVersion('0.1.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .build();
  const base = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey}_${methodKey}`,
  });
  const paths: Record<string, Record<string, Operation>> = {};
  const operationIds = new Set<string>();
  for (const route of routeContracts(app)) {
    const generated = (base.paths[route.path] as Record<string, Operation> | undefined)?.[route.method] ?? {};
    const operation = describeRoute(route, generated, zod);
    const id = operation.operationId as string;
    if (operationIds.has(id)) throw new Error(`OpenAPI: operationId ${id} is used twice (${route.method} ${route.path})`);
    operationIds.add(id);
    (paths[route.path] ??= {})[route.method] = operation;
  }
  paths['/metrics'] = { get: metricsOperation() };

  const usedTags = new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? [])));
  usedTags.add('webhooks');
  const missing = [...usedTags].filter((t) => !TAGS[t]);
  if (missing.length) throw new Error(`OpenAPI: tags without a description: ${missing.join(', ')}`);

  const errorComponents = Object.values(ERROR_RESPONSES).filter(({ name }) => JSON.stringify(paths).includes(`"#/components/responses/${name}"`));
  return normalizeNullable({
    openapi: '3.1.0',
    info: { ...config.info, license: { name: 'MIT', identifier: 'MIT' } },
    servers: SERVERS,
    tags: [...usedTags].sort().map((name) => ({ name, description: TAGS[name] })),
    paths: paths as OpenAPIObject['paths'],
    webhooks: signedWebhooks(webhooks),
    components: {
      securitySchemes: SECURITY_SCHEMES as unknown as NonNullable<OpenAPIObject['components']>['securitySchemes'],
      schemas: { ...webhookSchemas, ...zod.components, Error: ERROR_BODY_SCHEMA } as unknown as NonNullable<OpenAPIObject['components']>['schemas'],
      responses: Object.fromEntries(
        errorComponents.map(({ name, description }) => [
          name,
          { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ]),
      ),
    },
  }) as OpenAPIObject;
}

/** Every event Switchboard POSTs to a webhook URL carries the Standard Webhooks signature. */
function signedWebhooks(webhooks: Record<string, unknown>): OpenAPIObject['webhooks'] {
  return Object.fromEntries(
    Object.entries(webhooks).map(([name, item]) => [
      name,
      Object.fromEntries(Object.entries(item as Record<string, Operation>).map(([method, op]) => [method, { ...op, security: [{ webhookSignature: [] }] }])),
    ]),
  ) as OpenAPIObject['webhooks'];
}

/**
 * OpenAPI 3.0's `nullable: true` (what @nestjs/terminus declares) as 3.1 says it: `null` among
 * the types.
 */
function normalizeNullable<T>(node: T): T {
  if (Array.isArray(node)) return node.map(normalizeNullable) as T;
  if (!node || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, normalizeNullable(v)]));
  if (nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out as T;
}

function describeRoute(route: RouteContract, generated: Operation, zod: ZodSchemaConverter): Operation {
  const { operationId: _nestId, security: _nestSecurity, parameters: nestParameters = [], requestBody: nestBody, responses: nestResponses = {}, ...rest } = generated;
  const name = operationName(route);
  const operation: Operation = { ...rest, operationId: name, tags: generated.tags?.length ? generated.tags : ['channel'] };
  operation.security = security(route);

  const parameters = [...pathParameters(route, zod, nestParameters), ...queryParameters(route, zod, nestParameters), ...headerParameters(route, nestParameters)];
  if (parameters.length) operation.parameters = parameters;

  const body = route.body ? zod.convert(route.body, `${name}Body`) : undefined;
  if (body) {
    const media = nestBody?.content?.['application/json'] ?? {};
    operation.requestBody = { required: !takesNoBody(route), content: { 'application/json': { ...media, schema: body } } };
  } else if (nestBody?.content) {
    operation.requestBody = nestBody;
  }
  operation.responses = responses(route, nestResponses, zod, name);
  return operation;
}

/** Unique and readable: "messages_post"; the admin twin of a channel controller gets "admin". */
function operationName(route: RouteContract): string {
  const controller = route.controller.name.replace(/Controller$/, '');
  const scope = route.path.startsWith('/v1/admin/') && !controller.startsWith('Admin') ? 'admin' : '';
  const words = `${scope}${controller}`;
  return `${words.charAt(0).toLowerCase()}${words.slice(1)}_${route.handlerName}`;
}

function security(route: RouteContract): Record<string, string[]>[] {
  if (route.auth !== 'public') return [{ [SECURITY_BY_AUTH[route.auth]]: [] }];
  if (COOKIE_ROUTES.has(`${route.method} ${route.path}`)) return [{ consoleRefreshCookie: [] }];
  // Open on purpose (probes, login, the widget's way in, platform webhooks with their own signature).
  return [];
}

function describedBy(nest: Parameter[], name: string, place: Parameter['in']): string | undefined {
  return nest.find((p) => p.name.toLowerCase() === name.toLowerCase() && p.in === place)?.description;
}

function objectProperties(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: Set<string> } {
  return {
    properties: (schema.properties as Record<string, JsonSchema> | undefined) ?? {},
    required: new Set((schema.required as string[] | undefined) ?? []),
  };
}

function pathParameters(route: RouteContract, zod: ZodSchemaConverter, nest: Parameter[]): Parameter[] {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const fromZod = route.params ? objectProperties(zod.convert(route.params, 'params')).properties : {};
  return names.map((name) => ({
    name,
    in: 'path' as const,
    required: true,
    ...(describedBy(nest, name, 'path') && { description: describedBy(nest, name, 'path') }),
    schema: fromZod[name] ?? { type: 'string' },
  }));
}

const LIST_PARAMETERS: Parameter[] = [
  { name: 'sort', in: 'query', required: false, description: 'JSON `["field","ASC"|"DESC"]`; the fields each list sorts by are in docs/admin-api.md.', schema: { type: 'string' } },
  { name: 'range', in: 'query', required: false, description: 'JSON `[start, end]`, inclusive, at most 100 rows.', schema: { type: 'string' } },
  { name: 'filter', in: 'query', required: false, description: 'JSON object of filter keys (per list, docs/admin-api.md).', schema: { type: 'string' } },
];

function queryParameters(route: RouteContract, zod: ZodSchemaConverter, nest: Parameter[]): Parameter[] {
  if (route.query) {
    const { properties, required } = objectProperties(zod.convert(route.query, 'query'));
    return Object.entries(properties).map(([name, schema]) => ({
      name,
      in: 'query' as const,
      required: required.has(name),
      ...(describedBy(nest, name, 'query') && { description: describedBy(nest, name, 'query') }),
      schema,
    }));
  }
  if (route.rawQuery && isList(route)) return LIST_PARAMETERS;
  // Other raw queries (a platform's handshake, usage's own parameters) are read by the handler
  // and described with @ApiQuery.
  return nest.filter((p) => p.in === 'query').map((p) => ({ ...p, schema: p.schema ?? { type: 'string' } }));
}

function headerParameters(route: RouteContract, nest: Parameter[]): Parameter[] {
  const headers: Parameter[] = route.headers
    .filter((h) => !['authorization', 'content-type', 'accept'].includes(h.toLowerCase()))
    .map((h) => ({ name: h, in: 'header', required: false, ...(describedBy(nest, h, 'header') && { description: describedBy(nest, h, 'header') }), schema: { type: 'string' } }));
  if (route.auth === 'console-token') {
    headers.push({
      name: TENANT_HEADER,
      in: 'header',
      required: false,
      description: 'A platform admin acting inside one tenant: that tenant\'s id (docs/admin-api.md).',
      schema: { type: 'string', format: 'uuid' },
    });
  }
  return headers;
}

/** react-admin lists: raw query (sort, range, filter) on a console GET that sets Content-Range. */
function isList(route: RouteContract): boolean {
  return route.auth === 'console-token' && route.method === 'get' && route.rawQuery && !route.writesOwnAnswer;
}

function responses(route: RouteContract, nest: Record<string, Record<string, unknown>>, zod: ZodSchemaConverter, name: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const answer of route.answers) {
    const response: Record<string, unknown> = { description: answer.description };
    if (answer.schema) {
      const schema = zod.convert(answer.schema, `${name}${answer.status}`, 'output');
      response.content = { 'application/json': { schema, ...(answer.example !== undefined && { example: answer.example }) } };
      if (isList(route) && schema.type === 'array') response.headers = CONTENT_RANGE;
    }
    out[String(answer.status)] = response;
  }
  for (const [status, response] of Object.entries(nest)) {
    const code = Number(status);
    if (code < 400 && route.answers.length) continue;
    if (code >= 400) {
      const fallback = ERROR_RESPONSES[code]?.description ?? 'An error.';
      out[status] = {
        description: typeof response.description === 'string' && response.description ? response.description : fallback,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    } else {
      out[status] = successResponse(route, code, response);
    }
  }
  if (!Object.keys(out).some((s) => Number(s) < 400)) out[String(route.successStatus)] = successResponse(route, route.successStatus, {});
  for (const code of standardErrorStatuses(route)) {
    if (!out[String(code)]) out[String(code)] = { $ref: `#/components/responses/${ERROR_RESPONSES[code].name}` };
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

function successResponse(route: RouteContract, code: number, nest: Record<string, unknown>): Record<string, unknown> {
  const description = typeof nest.description === 'string' && nest.description ? nest.description : code === 204 ? 'Done; no content.' : 'Success.';
  if (code === 204) return { description };
  const content = (nest.content as Record<string, Record<string, unknown>> | undefined) ?? {};
  if (route.produces.includes('text/event-stream')) {
    return { description, content: { 'text/event-stream': { schema: { type: 'string', description: 'Server-Sent Events (event, id, data lines), as described above.' } } } };
  }
  if (route.produces.length && !route.produces.includes('application/json')) {
    return { description, content: Object.fromEntries(route.produces.map((media) => [media, { schema: { type: 'string' } }])) };
  }
  const declared = content['application/json'] ?? Object.values(content)[0];
  const schema = declared?.schema ?? defaultSuccessSchema(route);
  const response: Record<string, unknown> = { description, content: { 'application/json': { ...declared, schema } } };
  if (isList(route)) response.headers = CONTENT_RANGE;
  return response;
}

const CONTENT_RANGE = { 'Content-Range': { description: 'The rows sent and the total, e.g. `agents 0-24/113`.', schema: { type: 'string' } } };

/** Without a declared schema: a list is an array of records, anything else one JSON value. */
function defaultSuccessSchema(route: RouteContract): JsonSchema {
  if (isList(route)) return { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } };
  return {};
}

function metricsOperation(): Operation {
  return {
    operationId: 'metrics_scrape',
    summary: 'Prometheus metrics of this API process (text exposition format)',
    description:
      'Served on its own port (API_METRICS_PORT, default 9465, bound to API_METRICS_HOST, default 127.0.0.1), not on the API\'s. ' +
      'With METRICS_TOKEN set, the scrape must send it as a bearer token (docs/observability.md).',
    tags: ['metrics'],
    servers: [{ url: 'http://127.0.0.1:9465', description: 'The metrics port (API_METRICS_PORT)' }],
    security: [{}, { metricsToken: [] }],
    responses: {
      '200': { description: 'Prometheus text format 0.0.4.', content: { 'text/plain': { schema: { type: 'string' } } } },
      '401': { description: 'METRICS_TOKEN is set and the request did not send it.', content: { 'text/plain': { schema: { type: 'string' } } } },
    },
  };
}

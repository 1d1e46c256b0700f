import { RequestMethod, type INestApplication, type Type } from '@nestjs/common';
import { GUARDS_METADATA, HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, RESPONSE_PASSTHROUGH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import type { z } from 'zod';
import { PUBLIC_KEY } from '../admin/auth/roles.decorator';
import { ZodValidationPipe } from '../common/validation/zod-validation.pipe';
import { ANSWERS_METADATA, type DeclaredAnswer } from './answer.decorator';

/** Who may call a route, read from its guards. */
export type RouteAuth = 'channel-key' | 'console-token' | 'visitor-token' | 'public';

/** What one route accepts, read from Nest's metadata: the same pipes and guards requests go through. */
export interface RouteContract {
  method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  /** OpenAPI form: /v1/sessions/{sessionId}/messages. */
  path: string;
  controller: Type;
  handlerName: string;
  /** The zod schemas the route's ZodValidationPipes check, by place. */
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** Path parameters read raw (`@Param('id')`), checked inside the handler. */
  rawParams: string[];
  /** The whole query read raw (`@Query()`): react-admin's list parameters, or a platform's. */
  rawQuery: boolean;
  /** Headers the handler reads by name (`@Headers('last-event-id')`). */
  headers: string[];
  /** The handler writes the answer itself (`@Res()` without passthrough): streams, text. */
  writesOwnAnswer: boolean;
  /** Status of a success answer: @HttpCode, else 201 for POST and 200 for the rest (Nest's rule). */
  successStatus: number;
  auth: RouteAuth;
  guards: string[];
  /** Media types from @ApiProduces (text/event-stream for the streams). */
  produces: string[];
  /** Success answers declared with @Answers. */
  answers: DeclaredAnswer[];
}

interface RouteArg {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

/** Where @nestjs/swagger's @ApiProduces keeps its media types (its DECORATORS.API_PRODUCES). */
const API_PRODUCES = 'swagger/apiProduces';

const AUTH_BY_GUARD: Record<string, RouteAuth> = {
  ApiKeyGuard: 'channel-key',
  AdminAuthGuard: 'console-token',
  VisitorGuard: 'visitor-token',
};

/** True when the route acts on a request with no body at all: its body schema accepts none (a default, optional). */
export function takesNoBody(route: Pick<RouteContract, 'body'>): boolean {
  return route.body?.safeParse(undefined).success ?? true;
}

/** Every controller route of the app, with what it validates. */
export function routeContracts(app: INestApplication): RouteContract[] {
  const routes: RouteContract[] = [];
  // By class, not name: two controllers may share a name (channel and console MessagesController).
  const seen = new Set<Type>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      routes.push(...controllerRoutes(controller));
    }
  }
  return routes.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

function controllerRoutes(controller: Type): RouteContract[] {
  const routes: RouteContract[] = [];
  const bases = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined].flat();
  for (const handlerName of Object.getOwnPropertyNames(controller.prototype)) {
    const handler = (controller.prototype as Record<string, unknown>)[handlerName];
    if (typeof handler !== 'function' || !Reflect.hasMetadata(METHOD_METADATA, handler)) continue;
    const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number].toLowerCase() as RouteContract['method'];
    const args = Object.entries((Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handlerName) ?? {}) as Record<string, RouteArg>);
    const guards = [
      ...((Reflect.getMetadata(GUARDS_METADATA, controller) as Type[] | undefined) ?? []),
      ...((Reflect.getMetadata(GUARDS_METADATA, handler) as Type[] | undefined) ?? []),
    ].map((g) => g.name);
    const isPublic = Reflect.getMetadata(PUBLIC_KEY, handler) === true || Reflect.getMetadata(PUBLIC_KEY, controller) === true;
    const auth = isPublic ? 'public' : (guards.map((g) => AUTH_BY_GUARD[g]).find(Boolean) ?? 'public');
    const contract = readArgs(args);
    const passthrough = Reflect.getMetadata(RESPONSE_PASSTHROUGH_METADATA, controller, handlerName) === true;
    if (passthrough) contract.writesOwnAnswer = false;
    const code = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
    for (const base of bases) {
      for (const sub of [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat()) {
        const joined = '/' + [base, sub].map((p) => (p ?? '').replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/');
        routes.push({
          method,
          path: joined.replace(/:(\w+)/g, '{$1}'),
          controller,
          handlerName,
          ...contract,
          successStatus: code ?? (method === 'post' ? 201 : 200),
          auth,
          guards,
          produces: (Reflect.getMetadata(API_PRODUCES, handler) as string[] | undefined) ?? [],
          answers: (Reflect.getMetadata(ANSWERS_METADATA, handler) as DeclaredAnswer[] | undefined) ?? [],
        });
      }
    }
  }
  return routes;
}

type ArgContract = Pick<RouteContract, 'body' | 'query' | 'params' | 'rawParams' | 'rawQuery' | 'headers' | 'writesOwnAnswer'>;

function readArgs(args: [string, RouteArg][]): ArgContract {
  const out: ArgContract = { rawParams: [], rawQuery: false, headers: [], writesOwnAnswer: false };
  for (const [key, arg] of args) {
    const type = Number(key.split(':')[0]);
    const zod = (arg.pipes ?? []).find((p): p is ZodValidationPipe<z.ZodType> => p instanceof ZodValidationPipe);
    if (type === RouteParamtypes.BODY && zod) out.body = zod.schema;
    else if (type === RouteParamtypes.QUERY && zod) out.query = zod.schema;
    else if (type === RouteParamtypes.PARAM && zod) out.params = zod.schema;
    else if (type === RouteParamtypes.PARAM && typeof arg.data === 'string') out.rawParams.push(arg.data);
    else if (type === RouteParamtypes.QUERY && arg.data === undefined) out.rawQuery = true;
    else if (type === RouteParamtypes.HEADERS && typeof arg.data === 'string') out.headers.push(arg.data);
    else if (type === RouteParamtypes.RESPONSE) out.writesOwnAnswer = true;
  }
  return out;
}

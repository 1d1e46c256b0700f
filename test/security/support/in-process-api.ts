import { ModulesContainer } from '@nestjs/core';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadEnv, type Env } from '@switchboard/config';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createApp } from '../../../apps/api/src/create-app';

// The security suite talks to the API in-process: the same createApp as production, requests
// through Fastify's `inject` (no sockets), so thousands of cases per route stay fast.

export interface InProcessApi {
  app: NestFastifyApplication;
  fastify: FastifyInstance;
  env: Env;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function startInProcessApi(overrides: Record<string, string> = {}): Promise<InProcessApi> {
  const env = loadEnv({
    ...process.env,
    LOG_LEVEL: 'silent',
    // The fuzzer posts thousands of (invalid) messages; the ingest limits are tested elsewhere.
    RATE_LIMIT_KEY_PER_MINUTE: '1000000',
    RATE_LIMIT_TENANT_PER_MINUTE: '10000000',
    // No metrics port: several in-process APIs run at once; the metrics tests use a real process.
    API_METRICS_PORT: '0',
    // inject() comes from 127.0.0.1; the tests play the proxy there, so X-Forwarded-For spreads
    // their cases over client addresses (client-address.spec.ts covers TRUST_PROXY off).
    TRUST_PROXY: 'loopback',
    ...overrides,
  });
  const app = await createApp(env);
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  await fastify.ready();
  return { app, fastify, env, inject: (opts) => fastify.inject(opts), close: () => app.close() };
}

export interface DeclaredRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** As declared, with :params, e.g. /v1/admin/agents/:id. */
  path: string;
}

/**
 * Every controller route of the running app, read from Nest's module container (not from a
 * hand-kept list), so a route added tomorrow is fuzzed and matrix-checked without anyone
 * remembering to add it.
 */
export function declaredRoutes(app: NestFastifyApplication): DeclaredRoute[] {
  const seen = new Set<string>();
  const routes: DeclaredRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const bases = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]].flat();
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || !Reflect.hasMetadata(METHOD_METADATA, handler)) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number] as DeclaredRoute['method'];
        for (const base of bases) {
          for (const sub of [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat()) {
            const path = '/' + [base, sub].map((p) => (p ?? '').replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/');
            const key = `${method} ${path}`;
            if (!seen.has(key)) routes.push({ method, path });
            seen.add(key);
          }
        }
      }
    }
  }
  return routes.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/** Logs in through the app and returns the bearer token. */
export async function loginInProcess(api: InProcessApi, email: string, password: string): Promise<string> {
  const res = await api.inject({ method: 'POST', url: '/v1/admin/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login of ${email} answered ${res.statusCode}: ${res.body}`);
  return (res.json() as { accessToken: string }).accessToken;
}

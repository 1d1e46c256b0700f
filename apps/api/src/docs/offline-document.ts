import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { loadEnv } from '@switchboard/config';
import { AppModule } from '../app.module';
import { buildOpenApiDocument } from './openapi-document';

/**
 * The document /docs-json serves, built without a running API: Nest's preview mode scans the
 * modules and controllers but creates no provider, so no Postgres or Redis connection opens.
 * The environment's defaults are enough: no route's declaration depends on it.
 */
export async function offlineOpenApiDocument(): Promise<OpenAPIObject> {
  const env = loadEnv({ ...process.env, LOG_LEVEL: 'silent' });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(env), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    // Through JSON once, as /docs-json sends it (drops undefined members).
    return JSON.parse(JSON.stringify(buildOpenApiDocument(app))) as OpenAPIObject;
  } finally {
    await app.close();
  }
}

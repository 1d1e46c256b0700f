import { Logger, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConsoleDir } from './console-dir';
import { resolveConsoleTarget } from './console-files';

const PREFIX = '/admin';

/**
 * Serves the built react-admin console (apps/admin/dist) at /admin, with index.html for client
 * routes. Only /admin and /admin/* are claimed, so /v1, /docs and /health are never
 * shadowed. Whether the build exists is checked per request, so a console built after the API
 * started (as the browser tests do) is served without a restart.
 */
@Module({})
export class ConsoleModule implements OnModuleInit {
  private readonly logger = new Logger('Console');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async onModuleInit(): Promise<void> {
    const root = resolveConsoleDir();
    const index = join(root, 'index.html');
    if (existsSync(index)) this.logger.log(`Serving the console at ${PREFIX}/ from ${root}`);
    else this.logger.warn(`Console not built (${index} is missing): ${PREFIX}/ answers 404 until "npm run build -w apps/admin" runs`);

    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // An encapsulated plugin, so its reply.sendFile decorator cannot clash with another
    // @fastify/static registered elsewhere in the app.
    await fastify.register(async (scope) => {
      // preCompressed: the build writes .br and .gz beside each asset (apps/admin/precompress.ts);
      // a client that accepts one gets it with Content-Encoding, else the file as built.
      await scope.register(fastifyStatic, { root, serve: false, suppressWarning: true, preCompressed: true });
      scope.get(PREFIX, (_req, reply) => reply.redirect(`${PREFIX}/`, 301));
      scope.get(`${PREFIX}/*`, (req, reply) => serve(root, index, req, reply));
    });
  }
}

function serve(root: string, index: string, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (!existsSync(index)) {
    return reply.code(404).send({
      error: { code: 'console-not-built', message: 'The console is not built. Run "npm run build -w apps/admin" and reload.' },
    });
  }
  const target = resolveConsoleTarget(root, (req.params as { '*'?: string })['*'] ?? '');
  if (target.kind === 'missing') {
    return reply.code(404).send({ error: { code: 'not-found', message: `No console file at ${req.url}.` } });
  }
  if (target.kind === 'index') {
    // index.html names the hashed bundles of the current build; it must never be cached.
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html', { cacheControl: false });
  }
  return target.immutable
    ? reply.sendFile(target.path, { maxAge: '365d', immutable: true })
    : reply.sendFile(target.path, { cacheControl: false });
}

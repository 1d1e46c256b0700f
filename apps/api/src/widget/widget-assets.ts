import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import fastifyStatic from '@fastify/static';
import type { Env } from '@switchboard/config';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ENV } from '../config/env.module';
import { resolveWidgetDir, resolveWidgetFile } from './widget-files';

/**
 * `/widget.js`, the loader of the snippet, is cached for a few minutes only: it names the
 * content-hashed panel bundle, so a new release reaches pages within this time. The hashed
 * files under /widget/assets/ never change and are cached for a year.
 */
export const LOADER_MAX_AGE_SECONDS = 300;

/**
 * Serves the built widget (apps/widget/dist): gzip and brotli copies made at build time are sent
 * to browsers that accept them (@fastify/static preCompressed). Any site may load these files (they
 * are public code, so `Cross-Origin-Resource-Policy: cross-origin`); what a page may *do* with the
 * widget is decided by the channel's allowed origins on /v1/widget. Like the console, whether the
 * build exists is checked per request, so a widget built after the API started is served.
 */
@Injectable()
export class WidgetAssets implements OnModuleInit {
  private readonly logger = new Logger('Widget');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(ENV) private readonly env: Env,
  ) {}

  async onModuleInit(): Promise<void> {
    const root = resolveWidgetDir(this.env.WIDGET_DIST_DIR);
    const loader = join(root, 'widget.js');
    if (!existsSync(loader)) this.logger.warn(`Widget not built (${loader} is missing): /widget.js answers 404 until "npm run build -w apps/widget" runs`);
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(async (scope) => {
      await scope.register(fastifyStatic, { root, serve: false, preCompressed: true, suppressWarning: true });
      scope.get('/widget.js', (_req, reply) => {
        if (!existsSync(loader)) return notBuilt(reply);
        return publicFile(reply).header('Cache-Control', `public, max-age=${LOADER_MAX_AGE_SECONDS}`).sendFile('widget.js', { cacheControl: false });
      });
      scope.get('/widget/*', (req, reply) => {
        const file = resolveWidgetFile(root, (req.params as { '*'?: string })['*'] ?? '');
        if (!file) return reply.code(404).send({ error: { code: 'not-found', message: `No widget file at ${req.url.slice(0, 200)}.` } });
        if (file.cache === 'immutable') return publicFile(reply).sendFile(file.path, { maxAge: '365d', immutable: true });
        return publicFile(reply).header('Cache-Control', 'no-cache').sendFile(file.path, { cacheControl: false });
      });
    });
  }
}

/** Public code any page may load (helmet's default policy would block a cross-origin <script>). */
function publicFile(reply: FastifyReply): FastifyReply {
  return reply.header('Cross-Origin-Resource-Policy', 'cross-origin').header('Access-Control-Allow-Origin', '*');
}

function notBuilt(reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ error: { code: 'widget-not-built', message: 'The web widget is not built. Run "npm run build -w apps/widget" and reload.' } });
}

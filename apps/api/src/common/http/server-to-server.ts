import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Marks a route no browser calls (a channel's backend posts with its secret API key): helmet
 * and CORS skip it (docs/security.md, "Browser-facing headers"). Their headers mean nothing to a
 * server, and on the ingest hot path helmet and CORS were a tenth of the API's CPU
 * (docs/ingest-path.md). Never put it on a route the console or the widget calls.
 */
export const ServerToServer = () => RouteConfig({ helmet: { skipRoute: true }, cors: false });

/**
 * The paths of the routes marked ServerToServer, for CORS: a preflight (OPTIONS) runs on the
 * CORS plugin's own route, so only its path says which route the browser asks about.
 */
export class ServerToServerRoutes {
  private readonly paths = new Set<string>();

  /** Records the marked routes as they are added; call before any route is. */
  static watch(fastify: FastifyInstance): ServerToServerRoutes {
    const routes = new ServerToServerRoutes();
    fastify.addHook('onRoute', (route) => {
      if (isMarked(route.config)) routes.paths.add(route.url);
    });
    return routes;
  }

  /** True for a request to a marked route, or a preflight asking about one. */
  covers(req: FastifyRequest): boolean {
    if (isMarked(req.routeOptions.config)) return true;
    return req.method === 'OPTIONS' && this.paths.has(req.url.split('?', 1)[0]);
  }
}

function isMarked(config: unknown): boolean {
  return (config as { cors?: unknown } | undefined)?.cors === false;
}

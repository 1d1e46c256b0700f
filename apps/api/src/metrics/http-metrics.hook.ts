import type { FastifyInstance } from 'fastify';
import type { MetricsService } from './metrics.service';

/**
 * Observes every response, errors included, labelled by route pattern (not raw URL, which
 * would explode cardinality with ids). Requests that matched no route share one label.
 */
export function registerHttpMetrics(fastify: FastifyInstance, metrics: MetricsService): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

import { createServer, type Server } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { metricsScrapeAllowed } from '@switchboard/config';
import { WORKER_ENV, type WorkerEnv } from '../config/worker-env';
import { workerRegistry } from './turn-metrics';

/**
 * The worker's Prometheus endpoint: GET /metrics on WORKER_METRICS_PORT (0 = off), bound to
 * WORKER_METRICS_HOST (127.0.0.1 by default) and, with METRICS_TOKEN set, only for its bearer.
 * The worker has no other HTTP server, so this is a bare node:http one. A port already taken is logged
 * and the worker runs on without metrics: metrics must never stop turns from being answered.
 */
@Injectable()
export class WorkerMetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WorkerMetricsServer.name);
  private server?: Server;

  constructor(@Inject(WORKER_ENV) private readonly env: WorkerEnv) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.env.WORKER_METRICS_PORT;
    if (port === 0) return;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the worker serves only GET /metrics\n');
        return;
      }
      if (!metricsScrapeAllowed(req.headers.authorization, this.env.METRICS_TOKEN)) {
        res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n');
        return;
      }
      workerRegistry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': workerRegistry.contentType }).end(text),
        (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err.message}\n`),
      );
    });
    await new Promise<void>((resolve) => {
      server.once('listening', () => {
        this.server = server;
        this.logger.log({ msg: 'metrics listening', port });
        resolve();
      });
      server.once('error', (err) => {
        this.logger.error({ msg: 'metrics server could not listen; running without metrics', port, err: err.message });
        resolve();
      });
      server.listen(port, this.env.WORKER_METRICS_HOST);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections(); // a scraper's keep-alive connection would hold close() open
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

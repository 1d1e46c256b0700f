import { createServer, type Server } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { metricsScrapeAllowed, type Env } from '@switchboard/config';
import { ENV } from '../config/env.module';
import { MetricsService } from './metrics.service';

/**
 * The API's Prometheus endpoint: GET /metrics on API_METRICS_PORT (0 = off), bound to
 * API_METRICS_HOST (127.0.0.1 by default) and, with METRICS_TOKEN set, only for its bearer. Not
 * on the public port: the series name every route and the platform-wide queue counts, which the
 * console hides from tenants. A port already taken is logged and the API runs on without
 * metrics: metrics must never stop messages from being accepted.
 */
@Injectable()
export class ApiMetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ApiMetricsServer.name);
  private server?: Server;

  constructor(
    @Inject(ENV) private readonly env: Env,
    private readonly metrics: MetricsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.env.API_METRICS_PORT;
    if (port === 0) return;
    const registry = this.metrics.registry;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: this port serves only GET /metrics\n');
        return;
      }
      if (!metricsScrapeAllowed(req.headers.authorization, this.env.METRICS_TOKEN)) {
        res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n');
        return;
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err.message}\n`),
      );
    });
    await new Promise<void>((resolve) => {
      server.once('listening', () => {
        this.server = server;
        this.logger.log({ msg: 'metrics listening', host: this.env.API_METRICS_HOST, port });
        resolve();
      });
      server.once('error', (err) => {
        this.logger.error({ msg: 'metrics server could not listen; running without metrics', port, err: err.message });
        resolve();
      });
      server.listen(port, this.env.API_METRICS_HOST);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections(); // a scraper's keep-alive connection would hold close() open
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

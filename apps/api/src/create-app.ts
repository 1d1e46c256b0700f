import helmet from '@fastify/helmet';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Env } from '@switchboard/config';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { ServerToServerRoutes } from './common/http/server-to-server';
import { SwitchboardFastifyAdapter } from './common/http/switchboard-fastify-adapter';
import { setupSwagger } from './docs/swagger';
import { registerHttpMetrics } from './metrics/http-metrics.hook';
import { MetricsService } from './metrics/metrics.service';
import { WidgetChannels } from './widget/widget-channels';
import { corsDelegator } from './widget/widget-cors';

/**
 * Request bodies above this are refused with 413 `payload-too-large`. 128 KB fits the largest
 * valid message (16,000 characters, even when every one is JSON-escaped as \uXXXX) with room.
 */
export const BODY_LIMIT_BYTES = 128 * 1024;

/** Builds the configured, initialised API (not listening), for main.ts and in-process tests. */
export async function createApp(env: Env): Promise<NestFastifyApplication> {
  const adapter = new SwitchboardFastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES, trustProxy: env.TRUST_PROXY });
  const serverToServer = ServerToServerRoutes.watch(adapter.getInstance());

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(env), adapter, {
    bufferLogs: true,
    // Our own JSON parser (useJsonBodyParser) replaces Nest's, for the `invalid-json` error.
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  const consoleCors = {
    origin: env.CONSOLE_ORIGIN.split(',').map((o) => o.trim()),
    credentials: true,
    exposedHeaders: ['Content-Range', 'X-Total-Count', 'X-Request-Id'],
  };
  // The widget's routes answer the origins their channel allows; server-to-server routes none;
  // every other route the console's.
  app.enableCors({ delegator: corsDelegator(consoleCors, app.get(WidgetChannels), serverToServer) });
  await app.register(helmet, {
    // Swagger UI (and the console at /admin) use inline styles and data: images.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        scriptSrc: ["'self'", "'unsafe-inline'"],
      },
    },
  });
  registerHttpMetrics(adapter.getInstance(), app.get(MetricsService));
  setupSwagger(app);
  await app.init();
  return app;
}

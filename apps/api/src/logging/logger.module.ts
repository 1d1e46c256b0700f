import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DynamicModule } from '@nestjs/common';
import { logDestination, type Env } from '@switchboard/config';
import { LoggerModule } from 'nestjs-pino';

/**
 * JSON logs through pino. Every line of a request carries its `reqId`; handlers add
 * `tenantId`, `channelId` and `sessionId` with PinoLogger.assign once they know them
 * (assignResponse puts them on the "request completed" line too). Credentials are redacted.
 */
export function appLoggerModule(env: Env): DynamicModule {
  return LoggerModule.forRoot({
    assignResponse: true,
    pinoHttp: [
      {
        level: env.LOG_LEVEL,
        // Fastify made the id (see common/http/request-id.ts) and put it on the raw request.
        genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id?: string }).id ?? randomUUID(),
        redact: {
          paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
          censor: '[redacted]',
        },
        // Probes and scrapes would drown the log. Nest's middleware layer rewrites req.url, so the
        // path is in originalUrl.
        autoLogging: {
          ignore: (req) => /^\/(health\/live|metrics)(\?|$)/.test((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? ''),
        },
        serializers: {
          // Not every header: pino-http serializes this into a child logger on every request, at
          // any level, and the whole header set was a few percent of the API's CPU at ingest.
          req: (req: { id: string; method: string; url: string; headers: Record<string, unknown> }) => ({
            id: req.id,
            method: req.method,
            url: req.url,
            userAgent: req.headers['user-agent'],
          }),
          // Response headers are ours and repetitive (CSP, CORS); the status is what matters.
          res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        },
      },
      logDestination(),
    ],
  });
}

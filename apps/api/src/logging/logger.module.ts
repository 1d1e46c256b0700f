import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DynamicModule } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { LoggerModule } from 'nestjs-pino';

const REQUEST_ID_HEADER = 'x-request-id';

/** Reuses a caller's request id when it looks sane, so logs can be joined across services. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/**
 * JSON logs through pino. Every line of a request carries its `reqId`; handlers add
 * `tenantId`, `channelId` and `sessionId` with PinoLogger.assign once they know them
 * (assignResponse puts them on the "request completed" line too). Credentials are redacted.
 */
export function appLoggerModule(env: Env): DynamicModule {
  return LoggerModule.forRoot({
    assignResponse: true,
    pinoHttp: {
      level: env.LOG_LEVEL,
      genReqId: requestId,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      autoLogging: { ignore: (req) => req.url === '/health/live' || req.url === '/metrics' },
      serializers: {
        req: (req: { id: string; method: string; url: string; headers: Record<string, unknown> }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
          headers: req.headers,
        }),
      },
    },
  });
}

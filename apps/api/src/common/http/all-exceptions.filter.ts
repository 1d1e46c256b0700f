import { randomUUID } from 'node:crypto';
import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../errors/api-error';
import { asDependencyError } from '../errors/dependency-errors';

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown; errorId?: string };
}

// Nest turns Fastify's own errors (body too large, unsupported media type, bad content-length)
// and unknown routes into plain HttpExceptions; their status picks a stable code here.
const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'route-not-found',
  405: 'method-not-allowed',
  406: 'not-acceptable',
  408: 'request-timeout',
  413: 'payload-too-large',
  414: 'uri-too-long',
  415: 'unsupported-media-type',
  429: 'too-many-requests',
  431: 'headers-too-large',
};

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  /** Set for unknown errors (500): log it with the error. */
  errorId?: string;
  /** Sent as Retry-After (429, 503). */
  retryAfterSeconds?: number;
}

/** Turns any thrown value into what the client gets. Pure, so it is unit-tested. */
export function toErrorResponse(thrown: unknown): ErrorResponse {
  const exception = asDependencyError(thrown) ?? thrown;
  if (exception instanceof ApiError) {
    const error: ErrorBody['error'] = { code: exception.code, message: exception.message };
    if (exception.details !== undefined) error.details = exception.details;
    const retry = (exception as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    return { status: exception.status, body: { error }, ...(typeof retry === 'number' && { retryAfterSeconds: retry }) };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status >= 400 && status < 500) {
      return {
        status,
        body: { error: { code: CODE_BY_STATUS[status] ?? 'bad-request', message: httpExceptionMessage(exception) } },
      };
    }
  }
  const errorId = randomUUID();
  return {
    status: 500,
    errorId,
    body: {
      error: {
        code: 'internal-error',
        message: `Something failed on our side. Quote errorId ${errorId} when you report it.`,
        errorId,
      },
    },
  };
}

function httpExceptionMessage(e: HttpException): string {
  const res = e.getResponse();
  if (typeof res === 'string') return res;
  const message = (res as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return e.message;
}

/** Global filter: every error leaves as `{ "error": { code, message, details? } }`. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body, errorId, retryAfterSeconds } = toErrorResponse(exception);
    if (errorId) {
      this.logger.error({ err: exception, errorId }, 'unhandled error');
    } else if (status >= 500) {
      this.logger.error({ err: exception, code: body.error.code }, 'dependency failure');
    } else {
      this.logger.debug({ code: body.error.code, status }, 'request rejected');
    }
    if (reply.sent) return;
    if (retryAfterSeconds !== undefined) void reply.header('Retry-After', String(retryAfterSeconds));
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}


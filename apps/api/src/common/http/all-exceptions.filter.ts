import { randomUUID } from 'node:crypto';
import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../errors/api-error';
import { TooManyRequestsError } from '../errors/http-errors';

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

/** Turns any thrown value into the status and body the client gets. Pure, so it is unit-tested. */
export function toErrorResponse(exception: unknown): { status: number; body: ErrorBody; errorId?: string } {
  if (exception instanceof ApiError) {
    const error: ErrorBody['error'] = { code: exception.code, message: exception.message };
    if (exception.details !== undefined) error.details = exception.details;
    return { status: exception.status, body: { error } };
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
    const { status, body, errorId } = toErrorResponse(exception);
    if (errorId) {
      this.logger.error({ err: exception, errorId }, 'unhandled error');
    } else {
      this.logger.debug({ code: body.error.code, status }, 'request rejected');
    }
    if (reply.sent) return;
    if (exception instanceof TooManyRequestsError && exception.retryAfterSeconds !== undefined) {
      void reply.header('Retry-After', String(exception.retryAfterSeconds));
    }
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}

import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpException, Logger } from '@nestjs/common';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { BadRequestError } from '../errors/http-errors';
import { toErrorResponse, type ErrorBody } from './all-exceptions.filter';

const logger = new Logger('Errors');

/**
 * Errors raised by Fastify before a Nest handler runs (body parsing, body limit, media type,
 * plugins' hooks) never reach Nest's exception filters: Fastify routes keep the error handler
 * that was set when they were added, and Nest sets its own only afterwards. So we install ours
 * first; it answers in the same `{ error: { code, message } }` shape as AllExceptionsFilter.
 */
export function useFastifyErrorHandler(fastify: FastifyInstance): void {
  fastify.setErrorHandler((err: FastifyError | ApiError, _request, reply) => {
    const exception =
      !(err instanceof ApiError) && typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500
        ? new HttpException(err.message, err.statusCode)
        : err;
    const { status, body, errorId, retryAfterSeconds } = toErrorResponse(exception);
    if (errorId) logger.error({ err, errorId }, 'unhandled error');
    if (retryAfterSeconds !== undefined) void reply.header('Retry-After', String(retryAfterSeconds));
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  });
}

/**
 * Fastify's `frameworkErrors`: errors its router raises before any route or error handler is
 * chosen, such as a URL with a malformed percent-encoding (`/v1/admin/agents/%E0%A4%A`).
 * Without it they leave as Fastify's own `{ error, code: "FST_ERR_BAD_URL", statusCode }`.
 */
export function answerFrameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const exception =
    err.code === 'FST_ERR_BAD_URL'
      ? new BadRequestError('invalid-url', 'The URL has a malformed percent-encoding; encode path and query as UTF-8.')
      : typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500
        ? new HttpException(err.message, err.statusCode)
        : err;
  const { status, body, errorId } = toErrorResponse(exception);
  if (errorId) logger.error({ err, errorId }, 'unhandled error');
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the request before Fastify saw it
 * (headers or URL too large, a bare CR, a doubled Content-Length, Transfer-Encoding with
 * Content-Length, a timeout). There is no request or reply object, only the socket: the answer
 * is written by hand, in the same `{ error: { code, message } }` shape, and the connection is
 * closed, since what follows on it cannot be trusted to start a request.
 */
export function answerClientError(err: Error & { code?: string; reason?: string }, socket: Duplex): void {
  // A reset connection has nothing left to answer (Node's own behaviour).
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code, message } = clientErrorAnswer(err);
  logger.debug({ code: err.code, reason: err.reason }, 'malformed request refused');
  if (socket.writable) {
    const body = JSON.stringify({ error: { code, message } } satisfies ErrorBody);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export function clientErrorAnswer(err: { code?: string; reason?: string }): { status: number; code: string; message: string } {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request-timeout', message: 'The request did not arrive in time; send it again.' };
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'headers-too-large',
        message: 'The request line and headers are larger than the server accepts (16 KB); send a shorter URL or smaller headers.',
      };
    default: {
      // llhttp's reason names the fault, e.g. "Missing expected CR after header value" or
      // "Content-Length can't be present with Transfer-Encoding".
      const reason = typeof err.reason === 'string' && err.reason ? `${err.reason.replace(/\.$/, '')}` : 'it could not be parsed';
      return { status: 400, code: 'malformed-request', message: `The request is not valid HTTP/1.1: ${reason}. Nothing was processed.` };
    }
  }
}

import { HttpException, Logger } from '@nestjs/common';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { BadRequestError } from '../errors/http-errors';
import { toErrorResponse } from './all-exceptions.filter';

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

import { HttpException, Logger } from '@nestjs/common';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error';
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

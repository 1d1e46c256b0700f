import { HttpException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { Prisma } from '@switchboard/db';
import { ConflictError, InvalidJsonError, NotFoundError, TooManyRequestsError } from '../errors';
import { toErrorResponse } from './all-exceptions.filter';

describe('toErrorResponse', () => {
  it('answers a known error with its status, code, message and details', () => {
    expect(toErrorResponse(new ConflictError('slug-taken', 'That slug is taken.', { slug: 'acme' }))).toEqual({
      status: 409,
      body: { error: { code: 'slug-taken', message: 'That slug is taken.', details: { slug: 'acme' } } },
    });
    expect(toErrorResponse(new InvalidJsonError('Bad JSON.'))).toEqual({
      status: 400,
      body: { error: { code: 'invalid-json', message: 'Bad JSON.' } },
    });
    expect(toErrorResponse(new NotFoundError('agent-not-found', 'No agent.')).status).toBe(404);
  });

  it("gives Nest's and Fastify's 4xx HttpExceptions a code from their status", () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x')).body).toEqual({
      error: { code: 'route-not-found', message: 'Cannot GET /x' },
    });
    expect(toErrorResponse(new PayloadTooLargeException()).body.error.code).toBe('payload-too-large');
    expect(toErrorResponse(new HttpException('Unsupported Media Type', 415)).body.error.code).toBe('unsupported-media-type');
  });

  it('hides unknown errors behind a 500 with an errorId, never their message', () => {
    const res = toErrorResponse(new TypeError('secret internals at /srv/app.js:42'));
    expect(res.status).toBe(500);
    expect(res.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.error).toEqual({ code: 'internal-error', message: expect.stringContaining(res.errorId!), errorId: res.errorId });
    expect(JSON.stringify(res.body)).not.toContain('secret internals');
  });

  it('answers 503 database-unavailable with Retry-After when Postgres cannot be reached', () => {
    const unreachable = new Prisma.PrismaClientKnownRequestError("Can't reach database server", { code: 'P1001', clientVersion: '7' });
    expect(toErrorResponse(unreachable)).toEqual({
      status: 503,
      retryAfterSeconds: 5,
      body: { error: { code: 'database-unavailable', message: expect.stringContaining('Nothing was stored') } },
    });
    const constraint = new Prisma.PrismaClientKnownRequestError('Unique constraint failed', { code: 'P2002', clientVersion: '7' });
    expect(toErrorResponse(constraint).status).toBe(500);
  });

  it('sends Retry-After for rate limits', () => {
    expect(toErrorResponse(new TooManyRequestsError('rate-limited', 'Slow down.', 30)).retryAfterSeconds).toBe(30);
  });

  it('treats a 5xx HttpException as unknown too', () => {
    expect(toErrorResponse(new HttpException('db exploded', 502)).status).toBe(500);
  });
});

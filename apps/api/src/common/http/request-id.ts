import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Reuses a caller's request id when it looks sane, so logs can be joined across services. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

/**
 * Fastify generates the id (genReqId = requestIdOf); this hook echoes it to the client and puts
 * it on the raw request, where pino-http (nestjs-pino) picks it up as `reqId`.
 */
export function useRequestIdHeader(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    (request.raw as IncomingMessage & { id?: string }).id = request.id;
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}

import type { FastifyInstance } from 'fastify';
import { InvalidJsonError } from '../errors/http-errors';

/**
 * Replaces Fastify's JSON parser so malformed or empty JSON bodies fail with our own
 * `invalid-json` error (Nest would flatten Fastify's error into a generic 400). JSON.parse
 * never touches prototypes; an own `__proto__` key is then rejected by the strict schemas.
 */
export function useJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(new InvalidJsonError('The request body is empty; send a JSON object.'), undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (e) {
      done(new InvalidJsonError(`The request body is not valid JSON: ${(e as Error).message}.`), undefined);
    }
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidJsonError } from '../errors/http-errors';

/** A request whose JSON body was parsed here: the text as it arrived is on it too. */
export type RawBodyRequest = FastifyRequest & { rawBody?: string };

/**
 * Replaces Fastify's JSON parser so malformed or empty JSON bodies fail with our own
 * `invalid-json` error (Nest would flatten Fastify's error into a generic 400). JSON.parse
 * never touches prototypes; an own `__proto__` key is then rejected by the strict schemas.
 */
export function useJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // Kept byte for byte: platforms sign the raw body (WhatsApp's X-Hub-Signature-256).
    (req as RawBodyRequest).rawBody = text;
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

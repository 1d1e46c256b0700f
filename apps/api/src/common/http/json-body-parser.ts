import type { FastifyInstance } from 'fastify';
import { BadRequestError, InvalidJsonError } from '../errors/http-errors';

/** A body that is not valid UTF-8 (JSON and text must be): 400 `invalid-utf8`. */
export class InvalidUtf8Error extends BadRequestError {
  constructor() {
    super('invalid-utf8', 'The request body is not valid UTF-8; send JSON encoded as UTF-8.');
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decodes a body as UTF-8, refusing invalid bytes rather than turning them into U+FFFD. Parsing
 * as a string instead would also misreport them: Fastify compares the decoded length with
 * Content-Length and answers "Request body size did not match Content-Length".
 */
export function decodeUtf8Body(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    throw new InvalidUtf8Error();
  }
}

/**
 * Replaces Fastify's JSON (and plain-text) parsers so malformed, empty or non-UTF-8 bodies fail
 * with our own `invalid-json` / `invalid-utf8` errors (Nest would flatten Fastify's error into a
 * generic 400). JSON.parse never touches prototypes; an own `__proto__` key is then rejected by
 * the strict schemas.
 */
export function useJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (_req, body, done) => {
    let text: string;
    try {
      text = decodeUtf8Body(body as Buffer);
    } catch (e) {
      done(e as Error, undefined);
      return;
    }
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
  fastify.addContentTypeParser('text/plain', { parseAs: 'buffer', bodyLimit }, (_req, body, done) => {
    try {
      done(null, decodeUtf8Body(body as Buffer));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
}

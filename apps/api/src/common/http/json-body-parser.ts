import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequestError, InvalidJsonError } from '../errors/http-errors';

/** A body that is not valid UTF-8 (JSON and text must be): 400 `invalid-utf8`. */
export class InvalidUtf8Error extends BadRequestError {
  constructor() {
    super('invalid-utf8', 'The request body is not valid UTF-8; send JSON encoded as UTF-8.');
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** A request whose JSON body was parsed here: the text as it arrived is on it too. */
export type RawBodyRequest = FastifyRequest & { rawBody?: string };

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
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (req, body, done) => {
    let text: string;
    try {
      text = decodeUtf8Body(body as Buffer);
    } catch (e) {
      done(e as Error, undefined);
      return;
    }
    // The bytes as they came (a BOM included, which the decoder drops): platforms sign them
    // (WhatsApp's X-Hub-Signature-256, Slack's v0). Valid UTF-8 here, so this round-trips.
    (req as RawBodyRequest).rawBody = (body as Buffer).toString('utf8');
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

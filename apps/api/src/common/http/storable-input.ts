import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorDetail } from '../errors/api-error';
import { InvalidCharactersError } from '../errors/http-errors';
import { findUnstorable } from '../validation/storable-text';

type Location = NonNullable<ErrorDetail['location']>;

/**
 * One rule for every route, before any guard, pipe or handler runs: a body, query, path or
 * header value (or key) holding text Postgres cannot store — a NUL, a lone UTF-16 surrogate —
 * is refused with 400 `invalid-characters` naming the field (see storable-text.ts for why).
 * A preValidation hook runs after the body is parsed, so JSON escapes (`"\u0000"`, `"\ud800"`)
 * are seen decoded; it is installed before Nest adds its routes, so it covers all of them,
 * the unauthenticated ones (login, the widget) included.
 */
export function useStorableTextCheck(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', (request, _reply, done) => {
    const found = firstUnstorable(request);
    done(found ? new InvalidCharactersError(found.location, found.path, found.reason) : undefined);
  });
}

function firstUnstorable(request: FastifyRequest): { location: Location; path: string; reason: string } | undefined {
  const parts: [Location, unknown][] = [
    ['params', request.params],
    ['query', request.query],
    ['headers', request.headers],
    ['body', request.body],
  ];
  for (const [location, value] of parts) {
    const found = findUnstorable(value);
    if (found) return { location, ...found };
  }
  return undefined;
}

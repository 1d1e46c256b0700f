import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { TrustProxy } from '@switchboard/config';
import { answerClientError, answerFrameworkError, useFastifyErrorHandler } from './fastify-error-handler';
import { useJsonBodyParser } from './json-body-parser';
import { requestIdOf, useRequestIdHeader } from './request-id';
import { useStorableTextCheck } from './storable-input';

/**
 * Nest's Fastify adapter with our JSON parser, error handler and the check for text Postgres
 * cannot store (storable-input.ts) installed before any route.
 * Nest's own late `setErrorHandler` call is ignored: it would not reach the routes anyway
 * (see fastify-error-handler.ts) and would only make Fastify warn about an override.
 *
 * While closing, every response says `Connection: close`. Closing drops the connections that
 * are idle at that moment, but a request still in flight would leave a keep-alive connection
 * open after its answer, and the server would wait for it until the keep-alive timeout.
 */
export class SwitchboardFastifyAdapter extends FastifyAdapter {
  private closing = false;

  /** `trustProxy`: TRUST_PROXY (see env.schema): whose X-Forwarded-For / -Proto count. */
  constructor(opts: { bodyLimit: number; trustProxy: TrustProxy }) {
    super({
      bodyLimit: opts.bodyLimit,
      trustProxy: fastifyTrustProxy(opts.trustProxy),
      genReqId: requestIdOf,
      frameworkErrors: answerFrameworkError,
      clientErrorHandler: answerClientError,
    });
    useRequestIdHeader(this.getInstance());
    useJsonBodyParser(this.getInstance(), opts.bodyLimit);
    useFastifyErrorHandler(this.getInstance());
    useStorableTextCheck(this.getInstance());
    this.getInstance().addHook('onSend', async (_request, reply, payload) => {
      if (this.closing) void reply.header('connection', 'close');
      return payload;
    });
  }

  override close(): Promise<undefined> {
    this.closing = true;
    return super.close();
  }

  override setErrorHandler(_handler: Parameters<FastifyAdapter['setErrorHandler']>[0]): ReturnType<FastifyAdapter['setErrorHandler']> {
    return this.getInstance(); // Nest's handler is ignored on purpose, see the class comment
  }
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count goes as the function Fastify itself made of one
 * until 5.12, which now trusts no hop for a bare number: `n` means the `n` nearest peers are
 * proxies (docs/security.md), so an install behind one load balancer keeps its clients' addresses.
 */
export function fastifyTrustProxy(trustProxy: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (_address, hop) => hop < hops;
}

import { Inject, Injectable } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ENV } from '../../config/env.module';

export const REFRESH_COOKIE = 'sb_refresh';
/** Only the auth routes ever receive the refresh token; the rest of the API never sees it. */
export const REFRESH_COOKIE_PATH = '/v1/admin/auth';

/**
 * The refresh token's cookie: HttpOnly (page scripts cannot read it), SameSite=Strict (no other
 * site can make the browser send it) and Secure when the request came over TLS, or always with
 * AUTH_COOKIE_SECURE=always. The console is served by the API (same origin), so it rides along.
 */
@Injectable()
export class RefreshCookie {
  constructor(@Inject(ENV) private readonly env: Env) {}

  read(request: FastifyRequest): string | undefined {
    const header = request.headers.cookie;
    if (!header) return undefined;
    const value = parse(header)[REFRESH_COOKIE];
    return value ? value : undefined;
  }

  set(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
    const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
    void reply.header('set-cookie', serialize(REFRESH_COOKIE, token, { ...this.attributes(request), maxAge, expires: expiresAt }));
  }

  clear(request: FastifyRequest, reply: FastifyReply): void {
    void reply.header('set-cookie', serialize(REFRESH_COOKIE, '', { ...this.attributes(request), maxAge: 0, expires: new Date(0) }));
  }

  private attributes(request: FastifyRequest) {
    // request.protocol honours X-Forwarded-Proto only from a proxy TRUST_PROXY names.
    const secure = this.env.AUTH_COOKIE_SECURE === 'always' || request.protocol === 'https';
    return { httpOnly: true, sameSite: 'strict' as const, path: REFRESH_COOKIE_PATH, secure };
  }
}

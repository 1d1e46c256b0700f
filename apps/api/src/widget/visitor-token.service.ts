import { hkdfSync, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { jwtVerify, SignJWT } from 'jose';
import { ENV } from '../config/env.module';

const ISSUER = 'switchboard';
const AUDIENCE = 'switchboard-widget-visitor';

/** What a visitor token grants: one visitor's conversation on one widget channel, nothing else. */
export interface VisitorClaims {
  /** The visitor's random key; their session is the channel's session `visitor:<key>`. */
  visitor: string;
  channelId: string;
  tenantId: string;
}

/** The session key of a visitor (Session.externalKey on the widget's channel). */
export function visitorSessionKey(visitor: string): string {
  return `visitor:${visitor}`;
}

/**
 * Signs and checks visitor tokens (HS256 JWTs). Their key is derived from AUTH_SECRET for this
 * use only (HKDF), and their audience is their own, so a console access token is never a visitor
 * token nor the other way round. A token lives as long as the channel's `conversationDays`:
 * kept in the visitor's localStorage, it lets a returning visitor continue; each visit renews it.
 */
@Injectable()
export class VisitorTokens {
  private readonly key: Uint8Array;

  constructor(@Inject(ENV) env: Env) {
    this.key = new Uint8Array(hkdfSync('sha256', env.AUTH_SECRET, 'switchboard', 'widget visitor tokens v1', 32));
  }

  /** A new visitor key: 128 random bits. */
  newVisitor(): string {
    return randomBytes(16).toString('base64url');
  }

  async sign(claims: VisitorClaims, lifetimeDays: number): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date(Date.now() + lifetimeDays * 86_400_000);
    const token = await new SignJWT({ cid: claims.channelId, tid: claims.tenantId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.visitor)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
    return { token, expiresAt };
  }

  /** The claims of a valid, unexpired token, or null (forged, expired, malformed, other audience). */
  async verify(token: string): Promise<VisitorClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
      const { sub, cid, tid } = payload;
      if (typeof sub !== 'string' || typeof cid !== 'string' || typeof tid !== 'string') return null;
      return { visitor: sub, channelId: cid, tenantId: tid };
    } catch {
      return null;
    }
  }
}

import { AccessTokenService } from './access-token.service';
import { loadEnv } from '@switchboard/config';

describe('AccessTokenService', () => {
  const tokens = new AccessTokenService(loadEnv({ NODE_ENV: 'test' }));
  const claims = { userId: 'user-1', sessionId: 'session-1' };

  it('verifies its own tokens back to the user and login session', async () => {
    const token = await tokens.sign(claims);
    await expect(tokens.verify(token)).resolves.toEqual(claims);
  });

  it('refuses a tampered token', async () => {
    const token = await tokens.sign(claims);
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ sub: 'user-2', sid: 'session-1', iss: 'switchboard', aud: 'switchboard-console', exp: 9999999999 })).toString('base64url');
    await expect(tokens.verify(`${header}.${payload}.${signature}`)).resolves.toBeNull();
  });

  it('refuses an unsigned token', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: 'user-1', sid: 'session-1', iss: 'switchboard', aud: 'switchboard-console' })).toString('base64url');
    await expect(tokens.verify(`${header}.${payload}.`)).resolves.toBeNull();
  });

  it('refuses a token without a login session (issued before sessions existed)', async () => {
    const { SignJWT } = await import('jose');
    const env = loadEnv({ NODE_ENV: 'test' });
    const legacy = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setIssuer('switchboard')
      .setAudience('switchboard-console')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(env.AUTH_SECRET));
    await expect(tokens.verify(legacy)).resolves.toBeNull();
  });
});

describe('access tokens across secrets', () => {
  it('are refused by a service with another AUTH_SECRET', async () => {
    const token = await new AccessTokenService(loadEnv({ NODE_ENV: 'test' })).sign({ userId: 'user-1', sessionId: 's' });
    const other = new AccessTokenService(loadEnv({ NODE_ENV: 'test', AUTH_SECRET: 'y'.repeat(40) }));
    await expect(other.verify(token)).resolves.toBeNull();
  });
});

import { AccessTokenService } from './access-token.service';
import { loadEnv } from '@switchboard/config';

describe('AccessTokenService', () => {
  const tokens = new AccessTokenService(loadEnv({ NODE_ENV: 'test' }));

  it('verifies its own tokens back to the user id', async () => {
    const token = await tokens.sign('user-1');
    await expect(tokens.verify(token)).resolves.toBe('user-1');
  });

  it('refuses a tampered token', async () => {
    const token = await tokens.sign('user-1');
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ sub: 'user-2', iss: 'switchboard', aud: 'switchboard-console', exp: 9999999999 })).toString('base64url');
    await expect(tokens.verify(`${header}.${payload}.${signature}`)).resolves.toBeNull();
  });

  it('refuses an unsigned token', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: 'user-1', iss: 'switchboard', aud: 'switchboard-console' })).toString('base64url');
    await expect(tokens.verify(`${header}.${payload}.`)).resolves.toBeNull();
  });
});

describe('access tokens across secrets', () => {
  it('are refused by a service with another AUTH_SECRET', async () => {
    const token = await new AccessTokenService(loadEnv({ NODE_ENV: 'test' })).sign('user-1');
    const other = new AccessTokenService(loadEnv({ NODE_ENV: 'test', AUTH_SECRET: 'y'.repeat(40) }));
    await expect(other.verify(token)).resolves.toBeNull();
  });
});

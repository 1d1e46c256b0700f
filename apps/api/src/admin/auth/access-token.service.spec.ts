import { AccessTokenService } from './access-token.service';
import { readAuthSecret } from './auth-secret';

describe('AccessTokenService', () => {
  const tokens = new AccessTokenService();

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

describe('readAuthSecret', () => {
  it('refuses a short secret, naming the variable', () => {
    expect(() => readAuthSecret({ AUTH_SECRET: 'short', NODE_ENV: 'development' })).toThrow(/AUTH_SECRET is 5 characters long/);
  });

  it('refuses to run production without a secret', () => {
    expect(() => readAuthSecret({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET is not set/);
  });

  it('uses the given secret', () => {
    const secret = 'x'.repeat(40);
    expect(new TextDecoder().decode(readAuthSecret({ AUTH_SECRET: secret, NODE_ENV: 'production' }))).toBe(secret);
  });
});

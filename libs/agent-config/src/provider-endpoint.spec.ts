import type { Resolve } from '@switchboard/outbound';
import type { AgentProviderConfig } from './agent-config';
import { checkProviderEndpoint, ProviderEndpointError, type ProviderCredentialInfo } from './provider-endpoint';

// The one rule publish and the worker share: platform keys only to official endpoints, and a
// custom base URL through the outbound guard.

const none = new Set<string>();
const publicDns: Resolve = (_h, cb) => cb(null, [{ address: '93.184.215.14', family: 4 }]);
const loopbackDns: Resolve = (_h, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]);
const tenantKey = (kind: ProviderCredentialInfo['kind'], baseURL: string | null = null): ProviderCredentialInfo => ({ kind, baseURL });

async function refusal(provider: AgentProviderConfig, credential: ProviderCredentialInfo | null, resolve: Resolve = publicDns, allowed = none) {
  try {
    await checkProviderEndpoint(provider, { credential, allowedHosts: allowed, resolve });
  } catch (err) {
    if (err instanceof ProviderEndpointError) return { code: err.code, path: err.path, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('checkProviderEndpoint', () => {
  it('sends the platform key only to the official endpoint', async () => {
    await expect(checkProviderEndpoint({ kind: 'openai', model: 'm' }, { credential: null, allowedHosts: none })).resolves.toEqual({ key: 'platform' });
    await expect(checkProviderEndpoint({ kind: 'openai', model: 'm', baseURL: 'https://api.openai.com/v1' }, { credential: null, allowedHosts: none })).resolves.toEqual({
      key: 'platform',
      baseURL: 'https://api.openai.com/v1',
    });
    await expect(checkProviderEndpoint({ kind: 'gemini', model: 'm' }, { credential: null, allowedHosts: none })).resolves.toEqual({ key: 'platform' });
  });

  it.each(['openai', 'gemini'] as const)('refuses a custom baseURL for %s without a tenant credential, at provider.baseURL', async (kind) => {
    const r = await refusal({ kind, model: 'm', baseURL: 'https://gateway.example.com/v1' }, null);
    expect(r.code).toBe('provider-base-url-needs-credential');
    expect(r.path).toEqual(['provider', 'baseURL']);
    expect(r.message).toContain("the platform's own key is only sent to the official endpoint");
  });

  it('a custom baseURL with the tenant credential uses the tenant key; openai-compatible without one sends none', async () => {
    const opts = { allowedHosts: none, resolve: publicDns };
    await expect(checkProviderEndpoint({ kind: 'openai', model: 'm', baseURL: 'https://gw.example.com/v1' }, { ...opts, credential: tenantKey('openai') })).resolves.toEqual({
      key: 'tenant',
      baseURL: 'https://gw.example.com/v1',
    });
    await expect(checkProviderEndpoint({ kind: 'openai-compatible', model: 'm', baseURL: 'https://llm.example.com/v1' }, { ...opts, credential: null })).resolves.toEqual({
      key: 'none',
      baseURL: 'https://llm.example.com/v1',
    });
  });

  it('refuses loopback, private and metadata base URLs unless allow-listed, from the config or the credential', async () => {
    expect(await refusal({ kind: 'openai-compatible', model: 'm', baseURL: 'http://169.254.169.254/v1' }, null)).toMatchObject({ code: 'provider-address-forbidden', path: ['provider', 'baseURL'] });
    expect(await refusal({ kind: 'openai-compatible', model: 'm', baseURL: 'http://10.0.0.7:8000/v1' }, null)).toMatchObject({ code: 'provider-address-forbidden' });
    expect(await refusal({ kind: 'openai-compatible', model: 'm', baseURL: 'http://llm.internal:11434/v1' }, null, loopbackDns)).toMatchObject({
      code: 'provider-address-forbidden',
      message: expect.stringContaining('127.0.0.1'),
    });
    expect(await refusal({ kind: 'openai', model: 'm', credentialId: 'c' }, tenantKey('openai', 'http://[::1]:8080/v1'))).toMatchObject({ code: 'provider-address-forbidden', path: ['provider', 'credentialId'] });
    await expect(
      checkProviderEndpoint({ kind: 'openai-compatible', model: 'm', baseURL: 'http://llm.internal:11434/v1' }, { credential: null, allowedHosts: new Set(['llm.internal']), resolve: loopbackDns }),
    ).resolves.toMatchObject({ key: 'none' });
  });

  it('at call time leaves names to the connection check (no lookup), but still refuses literals', async () => {
    const resolve = jest.fn(loopbackDns);
    await expect(checkProviderEndpoint({ kind: 'openai-compatible', model: 'm', baseURL: 'http://llm.internal/v1' }, { credential: null, allowedHosts: none, resolve, resolveNames: false })).resolves.toMatchObject({ key: 'none' });
    expect(resolve).not.toHaveBeenCalled();
    await expect(checkProviderEndpoint({ kind: 'openai-compatible', model: 'm', baseURL: 'http://127.0.0.1/v1' }, { credential: null, allowedHosts: none, resolveNames: false })).rejects.toMatchObject({ code: 'provider-address-forbidden' });
  });

  it('refuses a credential of another provider, a URL with a password, and a non-http scheme', async () => {
    expect(await refusal({ kind: 'openai', model: 'm', credentialId: 'c' }, tenantKey('gemini'))).toMatchObject({ code: 'provider-credential-kind', path: ['provider', 'credentialId'] });
    expect(await refusal({ kind: 'openai-compatible', model: 'm', baseURL: 'https://u:p@llm.example.com/v1' }, null)).toMatchObject({ code: 'provider-base-url-invalid' });
    expect(await refusal({ kind: 'openai-compatible', model: 'm', baseURL: 'file:///etc/passwd' }, null)).toMatchObject({ code: 'provider-base-url-invalid' });
  });

  it('scripted agents call nothing', async () => {
    await expect(checkProviderEndpoint({ kind: 'scripted', model: 'x', baseURL: 'http://127.0.0.1' }, { credential: null, allowedHosts: none })).resolves.toEqual({ key: 'none' });
  });
});

import { createProvider, GeminiProvider, OpenAIProvider, ProviderConfigurationError } from '../../src/providers';
import { ScriptedProvider } from '../../src/scripted';
import { FakeOpenAIServer } from '../fakes/fake-openai-server';
import { speak } from './requests';

// Real HTTP servers and SDKs: allow for a busy CI machine (the default is 5 s per test).
jest.setTimeout(30_000);

function configError(build: () => unknown): ProviderConfigurationError {
  try {
    build();
  } catch (err) {
    expect(err).toBeInstanceOf(ProviderConfigurationError);
    return err as ProviderConfigurationError;
  }
  throw new Error('expected a ProviderConfigurationError');
}

describe('createProvider', () => {
  it('builds each provider the configuration names', () => {
    const openai = createProvider({ provider: 'openai', model: 'gpt-4.1-mini', credentials: { apiKey: 'sk-1' } });
    expect(openai).toBeInstanceOf(OpenAIProvider);
    expect(openai).toMatchObject({ name: 'openai', model: 'gpt-4.1-mini' });

    const gemini = createProvider({ provider: 'gemini', model: 'gemini-2.5-flash', credentials: { apiKey: 'g-1' } });
    expect(gemini).toBeInstanceOf(GeminiProvider);
    expect(gemini).toMatchObject({ name: 'gemini', model: 'gemini-2.5-flash' });

    const compatible = createProvider({ provider: 'openai-compatible', model: 'llama3.1:8b', baseURL: 'http://127.0.0.1:11434/v1' });
    expect(compatible).toBeInstanceOf(OpenAIProvider);
    expect(compatible).toMatchObject({ name: 'openai-compatible', model: 'llama3.1:8b' });

    const scripted = createProvider({ provider: 'scripted', model: '', scripted: { rules: [{ call: 'speak', reply: 'Olá!' }] } });
    expect(scripted).toBeInstanceOf(ScriptedProvider);
  });

  it('an openai-compatible server without a key gets no Authorization header, never the host environment key', async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-host-secret';
    const server = await FakeOpenAIServer.start([{ reply: { content: 'ok' } }]);
    try {
      const provider = createProvider({ provider: 'openai-compatible', model: 'llama3.1:8b', baseURL: server.baseURL, maxRetries: 0 });
      await provider.generate(speak());
      expect(server.requests[0].headers.authorization).toBeUndefined();
      expect(JSON.stringify(server.requests[0].headers)).not.toContain('sk-host-secret');
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
      await server.close();
    }
  });

  it('refuses an unknown provider name, listing the valid ones', () => {
    const err = configError(() => createProvider({ provider: 'anthropic' as never, model: 'x' }));
    expect(err.code).toBe('provider-unknown');
    expect(err.message).toContain('"openai", "gemini", "openai-compatible", "scripted"');
  });

  it('refuses a missing key for openai and gemini', () => {
    expect(configError(() => createProvider({ provider: 'openai', model: 'gpt-4.1-mini' })).code).toBe('provider-key-missing');
    expect(configError(() => createProvider({ provider: 'gemini', model: 'gemini-2.5-flash', credentials: { apiKey: '  ' } })).code).toBe('provider-key-missing');
  });

  it('refuses a missing model, a missing baseURL for openai-compatible, and a bad responseFormat', () => {
    expect(configError(() => createProvider({ provider: 'openai', model: '', credentials: { apiKey: 'k' } })).code).toBe('provider-model-missing');
    expect(configError(() => createProvider({ provider: 'openai-compatible', model: 'm' })).code).toBe('provider-base-url-missing');
    expect(
      configError(() => createProvider({ provider: 'openai', model: 'm', credentials: { apiKey: 'k' }, responseFormat: 'xml' as never })).code,
    ).toBe('provider-option-invalid');
    expect(configError(() => createProvider({ provider: 'gemini', model: 'm', credentials: { apiKey: 'k' }, maxRetries: -1 })).code).toBe('provider-option-invalid');
    expect(configError(() => createProvider({ provider: 'openai', model: 'm', credentials: { apiKey: 'k' }, maxRetries: 1.5 })).code).toBe('provider-option-invalid');
  });

  it('refuses bad scripted rules with the rule path in the message', () => {
    const err = configError(() => createProvider({ provider: 'scripted', model: '', scripted: { rules: 'nope' } }));
    expect(err.code).toBe('provider-script-invalid');
    expect(err.message).toContain('script.rules');
  });
});

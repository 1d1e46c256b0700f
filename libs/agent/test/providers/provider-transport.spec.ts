import { createProvider } from '../../src/providers';
import type { FetchLike } from '../../src/providers';
import { FakeGeminiServer } from '../fakes/fake-gemini-server';
import { FakeOpenAIServer } from '../fakes/fake-openai-server';
import { collect, fastRetry, speak } from './requests';

// The host's transport (ProviderFactoryConfig.fetch) carries every request, plain and
// streamed, and a refusal by its rules is a permanent `invalid` failure, not a network one.

jest.setTimeout(30_000);

/** A transport that records the URLs it was asked for and refuses hosts named in `refuse`. */
function recordingTransport(refuse: string[] = []) {
  const urls: string[] = [];
  const transport: FetchLike = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    urls.push(url);
    if (refuse.some((host) => new URL(url).hostname === host)) {
      const refusal = Object.assign(new Error(`refused to call ${new URL(url).hostname}: not reachable from model providers`), { refusedByPolicy: true });
      throw new TypeError('fetch failed', { cause: refusal });
    }
    return fetch(input, init);
  };
  return { urls, transport };
}

describe('a provider with a host transport', () => {
  let openai: FakeOpenAIServer | undefined;
  let gemini: FakeGeminiServer | undefined;
  afterEach(async () => {
    await openai?.close();
    await gemini?.close();
    openai = gemini = undefined;
  });

  it('OpenAI and openai-compatible send plain and streamed requests through it', async () => {
    openai = await FakeOpenAIServer.start([{ reply: { content: 'Olá!' } }]);
    const { urls, transport } = recordingTransport();
    const p = createProvider({ provider: 'openai-compatible', model: 'm', baseURL: openai.baseURL, fetch: transport, retry: fastRetry });
    expect((await p.generate(speak())).text).toBe('Olá!');
    expect((await collect(p.stream!(speak()))).map((c) => ('delta' in c ? c.delta : '')).join('')).toBe('Olá!');
    expect(urls).toEqual([`${openai.baseURL}/chat/completions`, `${openai.baseURL}/chat/completions`]);
  });

  it('Gemini sends plain and streamed requests through it', async () => {
    gemini = await FakeGeminiServer.start([{ reply: { parts: [{ text: 'Oi!' }] } }]);
    const { urls, transport } = recordingTransport();
    const p = createProvider({ provider: 'gemini', model: 'gemini-2.5-flash', baseURL: gemini.baseUrl, credentials: { apiKey: 'g-key-123456' }, fetch: transport, retry: fastRetry });
    expect((await p.generate(speak())).text).toBe('Oi!');
    expect((await collect(p.stream!(speak()))).map((c) => ('delta' in c ? c.delta : '')).join('')).toBe('Oi!');
    expect(urls).toHaveLength(2);
    expect(urls.every((u) => u.startsWith(gemini!.baseUrl))).toBe(true);
  });

  it('a refusal by the transport is `invalid` for both SDKs, and is not retried', async () => {
    const { urls, transport } = recordingTransport(['blocked.example.test']);
    const compatible = createProvider({ provider: 'openai-compatible', model: 'm', baseURL: 'http://blocked.example.test/v1', fetch: transport, retry: fastRetry });
    await expect(compatible.generate(speak())).rejects.toMatchObject({ kind: 'invalid', message: expect.stringContaining('not reachable from model providers') });
    const g = createProvider({ provider: 'gemini', model: 'gemini-2.5-flash', baseURL: 'http://blocked.example.test', credentials: { apiKey: 'g-key-123456' }, fetch: transport, retry: fastRetry });
    await expect(g.generate(speak())).rejects.toMatchObject({ kind: 'invalid', message: expect.stringContaining('not reachable from model providers') });
    expect(urls).toHaveLength(2);
  });
});

import { ProviderError } from '../../src/provider';
import { GeminiProvider, OpenAIProvider, REDACTED, scrubSecretText } from '../../src/providers';
import { FakeGeminiServer } from '../fakes/fake-gemini-server';
import { FakeOpenAIServer } from '../fakes/fake-openai-server';
import { collect, failure, fastRetry, speak } from './requests';

// Gateways echo what they were sent. Whatever a provider lets out of a failure (the message
// the trace and outcome show, its cause that a logger may print) carries no key: neither the
// one in use nor anything shaped like one.

jest.setTimeout(30_000);

const OPENAI_KEY = 'sk-canary-tenant-key-0123456789abcdef';
const GEMINI_KEY = 'AIzaSyCanary-tenant-key-0123456789abcd';
const OTHER_KEY = 'sk-proj-someone-elses-key-9876543210';

/** Everything a reader of the error could print: message, stack, the cause chain, and its JSON. */
function everything(err: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = err, depth = 0; current && depth < 6; depth++) {
    const e = current as Error & Record<string, unknown>;
    parts.push(String(e.message), String(e.stack), JSON.stringify(e, Object.getOwnPropertyNames(e).filter((k) => k !== 'cause')));
    current = e.cause;
  }
  return parts.join('\n');
}

describe('scrubSecretText', () => {
  it.each([
    ['the key in use, wherever it is', `invalid key ${OPENAI_KEY}!`, [OPENAI_KEY], `invalid key ${REDACTED}!`],
    ['an OpenAI-shaped key of someone else', `key ${OTHER_KEY} revoked`, [], `key sk-${REDACTED} revoked`],
    ['a Google API key', `API key not valid: ${GEMINI_KEY}.`, [], `API key not valid: AIza${REDACTED}.`],
    ['a bearer token', 'got Authorization: Bearer abc.def-ghi_123456', [], `got Authorization: Bearer ${REDACTED}`],
    ['a basic credential', 'Basic dXNlcjpwYXNzd29yZA==', [], `Basic ${REDACTED}`],
    ['a named header or parameter', 'x-goog-api-key: g-whatever-1234 and ?key=abcdef1234&alt=sse', [], `x-goog-api-key: ${REDACTED} and ?key=${REDACTED}&alt=sse`],
    ['a JSON field', '{"api_key":"plainsecretvalue"}', [], `{"api_key":"${REDACTED}"}`],
    ['a JWT', 'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdefghijk', [], `token ${REDACTED}`],
  ])('cuts %s', (_name, text, secrets, expected) => {
    expect(scrubSecretText(text, secrets)).toBe(expected);
  });

  it('leaves ordinary text alone, and does not cut short placeholders such as "none"', () => {
    const text = 'The model is overloaded (503). The input token count (1234) exceeds the limit; a basic question; key rotation is none of our business.';
    expect(scrubSecretText(text, ['none', 'of'])).toBe(text);
  });
});

describe('a provider error that echoes the key', () => {
  let openai: FakeOpenAIServer | undefined;
  let gemini: FakeGeminiServer | undefined;
  afterEach(async () => {
    await openai?.close();
    await gemini?.close();
    openai = gemini = undefined;
  });

  it('OpenAI: the 401 text with the key in it leaves the provider without it (generate and stream)', async () => {
    const echo = `Incorrect API key provided: ${OPENAI_KEY}. Sent: Bearer ${OPENAI_KEY}; also saw ${OTHER_KEY}`;
    openai = await FakeOpenAIServer.start([{ error: { status: 401, message: echo, code: 'invalid_api_key' } }]);
    const p = new OpenAIProvider({ apiKey: OPENAI_KEY, model: 'gpt-test', baseURL: openai.baseURL, retry: fastRetry });

    const err = await failure(p.generate(speak()));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'auth', status: 401 });
    expect(err.message).toContain('Incorrect API key provided');
    const streamed = await collect(p.stream(speak())).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(streamed).toMatchObject({ kind: 'auth' });
    for (const e of [err, streamed]) {
      const text = everything(e);
      expect(text).not.toContain(OPENAI_KEY);
      expect(text).not.toContain(OTHER_KEY);
      expect(text).toContain(REDACTED);
    }
  });

  it('Gemini: the 400 body with the key in it leaves the provider without it (generate and stream)', async () => {
    const echo = `API key not valid. Please pass a valid API key. (got ${GEMINI_KEY})`;
    gemini = await FakeGeminiServer.start([{ error: { code: 400, status: 'INVALID_ARGUMENT', message: echo, details: [{ reason: 'API_KEY_INVALID', key: GEMINI_KEY }] } }]);
    const p = new GeminiProvider({ apiKey: GEMINI_KEY, model: 'gemini-2.5-flash', baseUrl: gemini.baseUrl, retry: fastRetry });

    const err = await failure(p.generate(speak()));
    expect(err).toMatchObject({ kind: 'auth', status: 400 });
    const streamed = await collect(p.stream(speak())).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(streamed).toMatchObject({ kind: 'auth' });
    for (const e of [err, streamed]) {
      const text = everything(e);
      expect(text).not.toContain(GEMINI_KEY);
      expect(text).toContain('API key not valid');
    }
  });

  it('a key shorter than the pattern shapes is still cut when it is the one in use', async () => {
    const key = 'tenant-short-key-42';
    openai = await FakeOpenAIServer.start([{ error: { status: 403, message: `key ${key} has no access` } }]);
    const p = new OpenAIProvider({ apiKey: key, model: 'gpt-test', baseURL: openai.baseURL, retry: fastRetry });
    const err = await failure(p.generate(speak()));
    expect(everything(err)).not.toContain(key);
    expect(err.message).toContain(`key ${REDACTED} has no access`);
  });
});

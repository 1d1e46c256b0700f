// Every way a provider fails, driven through a whole `agent.turn` with the real SDKs against the
// fake servers: the speak round's failure becomes the outcome engine.md §4 names (deferred with
// a retry wake, or the run ended failed), and nothing throws out of `turn`.
import { ProviderError, type AiProvider, type TurnResult } from '@falai/agent';
import { GeminiProvider, OpenAIProvider } from '../../src/providers';
import { conciergeGemini, conciergeOpenAI } from '../fakes/concierge-wire';
import { FakeGeminiServer, type GeminiCall, type GeminiStep } from '../fakes/fake-gemini-server';
import { FakeOpenAIServer, type OpenAIStep } from '../fakes/fake-openai-server';
import { buildConcierge } from './concierge-agent';
import { fastRetry } from './requests';

// Real HTTP servers and SDKs: allow for a busy CI machine (the default is 5 s per test).
jest.setTimeout(30_000);

type Expected =
  | { effect: 'deferred'; code: 'provider-unavailable' | 'provider-quota' }
  | { effect: 'failed'; code: 'provider-quota' | 'provider-auth' | 'provider-context' | 'provider-invalid' };

interface Case {
  name: string;
  openai?: OpenAIStep;
  gemini?: GeminiStep;
  expected: Expected;
}

const unavailable = { effect: 'deferred', code: 'provider-unavailable' } as const;

const cases: Case[] = [
  {
    name: '429 on every attempt (rate-limited)',
    openai: { error: { status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded', headers: { 'retry-after-ms': '5' } } },
    gemini: { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted.', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.005s' }] } },
    expected: unavailable,
  },
  {
    name: '500 (unknown)',
    openai: { error: { status: 500, message: 'The server had an error', type: 'server_error' } },
    gemini: { error: { code: 500, status: 'INTERNAL', message: 'Internal error.' } },
    expected: unavailable,
  },
  {
    name: '503 (overloaded)',
    openai: { error: { status: 503, message: 'overloaded', type: 'server_error' } },
    gemini: { error: { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded.' } },
    expected: unavailable,
  },
  { name: 'a hung server (timeout)', openai: { hang: true }, gemini: { hang: true }, expected: unavailable },
  { name: 'a dropped connection (network)', openai: { drop: true }, gemini: { drop: true }, expected: unavailable },
  { name: 'an empty completion (empty)', openai: { reply: { content: '' } }, gemini: { reply: { parts: [], finishReason: 'STOP' } }, expected: unavailable },
  {
    name: 'a quota with a stated reset',
    gemini: {
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        message: 'Quota exceeded for metric: generate_content_free_tier_requests, limit: 250',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' }] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7200s' },
        ],
      },
    },
    expected: { effect: 'deferred', code: 'provider-quota' },
  },
  {
    name: 'a quota without a reset',
    openai: { error: { status: 429, message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } },
    gemini: { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'You exceeded your current quota, please check your plan and billing details.' } },
    expected: { effect: 'failed', code: 'provider-quota' },
  },
  {
    name: '401 (auth)',
    openai: { error: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' } },
    gemini: { error: { code: 403, status: 'PERMISSION_DENIED', message: 'Permission denied.' } },
    expected: { effect: 'failed', code: 'provider-auth' },
  },
  {
    name: '400 context length (context)',
    openai: { error: { status: 400, message: "This model's maximum context length is 128000 tokens.", code: 'context_length_exceeded' } },
    gemini: { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).' } },
    expected: { effect: 'failed', code: 'provider-context' },
  },
  {
    name: '404 model not found (invalid)',
    openai: { error: { status: 404, message: 'The model `gpt-nope` does not exist', code: 'model_not_found' } },
    gemini: { error: { code: 404, status: 'NOT_FOUND', message: 'models/gemini-nope is not found for API version v1beta.' } },
    expected: { effect: 'failed', code: 'provider-invalid' },
  },
];

// Long enough for the understand call on a busy machine; the hung-server case waits it out twice.
const options = { maxRetries: 1, timeoutMs: 1_500, retry: fastRetry };

/** Understand calls answer normally; speak calls get the failure. */
const openaiScript = (failure: OpenAIStep) => (body: { response_format?: { json_schema?: { name?: string } } }) =>
  body.response_format?.json_schema?.name === 'understand' ? conciergeOpenAI(body) : failure;
const isUnderstand = (call: GeminiCall) => Boolean(call.body.generationConfig?.responseJsonSchema?.properties?.flows);
const geminiScript = (failure: GeminiStep) => (call: GeminiCall) => (isUnderstand(call) ? conciergeGemini(call) : failure);

function expectOutcome(r: TurnResult, expected: Expected, started: number) {
  const outcome = r.outcomes.find((o) => o.code?.startsWith('provider-'));
  expect(outcome).toMatchObject({ flowId: 'hospedagem', stepId: 'oferta', code: expected.code, status: expected.effect });
  expect(r.messages).toEqual([]);
  // understand + the failed speak round
  expect(r.llmCalls).toBe(2);
  if (expected.effect === 'deferred') {
    expect(r.schedule).toHaveLength(1);
    expect(r.schedule[0].key).toMatch(/^hospedagem#.+:oferta:\d+:retry:\d+$/);
    expect(r.ended).toEqual([]);
    const minWait = expected.code === 'provider-quota' ? 7_200_000 : 60_000;
    expect(Date.parse(r.schedule[0].at)).toBeGreaterThanOrEqual(started + minWait - 1_000);
  } else {
    expect(r.schedule).toEqual([]);
    expect(r.ended.map((run) => [run.flowId, run.reason])).toEqual([['hospedagem', 'failed']]);
  }
}

describe('provider failures through agent.turn', () => {
  describe.each(cases.filter((c) => c.openai))('OpenAIProvider: $name', (c) => {
    it(`ends in ${c.expected.code}, ${c.expected.effect}`, async () => {
      const server = await FakeOpenAIServer.start(openaiScript(c.openai!));
      try {
        const agent = buildConcierge(new OpenAIProvider({ apiKey: 'sk-test', model: 'gpt-4.1-mini', baseURL: server.baseURL, ...options }));
        const started = Date.now();
        const r = await agent.turn({ sessionId: 's', message: 'Quero um quarto em Curitiba' });
        expectOutcome(r, c.expected, started);
      } finally {
        await server.close();
      }
    });
  });

  describe.each(cases.filter((c) => c.gemini))('GeminiProvider: $name', (c) => {
    it(`ends in ${c.expected.code}, ${c.expected.effect}`, async () => {
      const server = await FakeGeminiServer.start(geminiScript(c.gemini!));
      try {
        const agent = buildConcierge(new GeminiProvider({ apiKey: 'g-test', model: 'gemini-2.5-flash', baseUrl: server.baseUrl, ...options }));
        const started = Date.now();
        const r = await agent.turn({ sessionId: 's', message: 'Quero um quarto em Curitiba' });
        expectOutcome(r, c.expected, started);
      } finally {
        await server.close();
      }
    });
  });

  it('a failed understand call throws ProviderError from turn (nothing ran, the host retries the input)', async () => {
    const server = await FakeOpenAIServer.start([{ error: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' } }]);
    try {
      const agent = buildConcierge(new OpenAIProvider({ apiKey: 'sk-bad', model: 'gpt-4.1-mini', baseURL: server.baseURL, ...options }));
      const err = await agent.turn({ sessionId: 's', message: 'Quero um quarto em Curitiba' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ProviderError);
      expect(err).toMatchObject({ kind: 'auth' });
    } finally {
      await server.close();
    }
  });
});

describe('streaming through agent.turnStream', () => {
  async function streamTurn(provider: AiProvider) {
    const agent = buildConcierge(provider);
    const deltas: string[] = [];
    let result: TurnResult | undefined;
    for await (const chunk of agent.turnStream({ sessionId: 's', message: 'Quero um quarto em Curitiba' })) {
      if ('delta' in chunk) deltas.push(chunk.delta);
      else result = chunk.result;
    }
    return { deltas, result: result! };
  }

  it('OpenAI SSE deltas reach turnStream, and the final result carries the message and usage', async () => {
    const server = await FakeOpenAIServer.start(conciergeOpenAI);
    try {
      const { deltas, result } = await streamTurn(new OpenAIProvider({ apiKey: 'sk-test', model: 'gpt-4.1-mini', baseURL: server.baseURL }));
      expect(deltas.length).toBeGreaterThan(3);
      expect(deltas.join('')).toContain('A diária em Curitiba sai por R$ 420.');
      expect(result.messages.map((m) => m.text)).toEqual(['A diária em Curitiba sai por R$ 420. Posso reservar?']);
      expect(result.usage).toEqual({ inputTokens: 560, outputTokens: 52, cachedInputTokens: 64 });
      expect(server.bodies.filter((b) => b.stream).length).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('Gemini SSE deltas reach turnStream without thought text', async () => {
    const server = await FakeGeminiServer.start(conciergeGemini);
    try {
      const { deltas, result } = await streamTurn(new GeminiProvider({ apiKey: 'g-test', model: 'gemini-2.5-flash', baseUrl: server.baseUrl }));
      expect(deltas.length).toBeGreaterThan(3);
      expect(deltas.join('')).toContain('A diária em Curitiba sai por R$ 420.');
      expect(deltas.join('')).not.toContain('Vou responder em JSON.');
      expect(result.messages.map((m) => m.text)).toEqual(['A diária em Curitiba sai por R$ 420. Posso reservar?']);
      expect(server.calls.filter((c) => c.stream).length).toBe(2);
    } finally {
      await server.close();
    }
  });
});

import { ProviderError } from '../../src/provider';
import { GeminiProvider } from '../../src/providers';
import { EMPTY_CONVERSATION } from '../../src/providers/gemini/map-request';
import { SKIP_SIGNATURE } from '../../src/providers/gemini/thought-signatures';
import { FakeGeminiServer, type GeminiStep, type GeminiScript } from '../fakes/fake-gemini-server';
import { collect, failure, fastRetry, precoTool, speak, understandSchema } from './requests';

// Real HTTP servers and SDKs: allow for a busy CI machine (the default is 5 s per test).
jest.setTimeout(30_000);

describe('GeminiProvider against a fake Gemini API server', () => {
  let server: FakeGeminiServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function provider(steps: GeminiStep[] | GeminiScript, options: Partial<ConstructorParameters<typeof GeminiProvider>[0]> = {}) {
    server = await FakeGeminiServer.start(steps);
    return new GeminiProvider({ apiKey: 'g-test', model: 'gemini-2.5-flash', baseUrl: server.baseUrl, retry: fastRetry, ...options });
  }

  it('returns the text of a plain reply and sends the system instruction and contents', async () => {
    const p = await provider([{ reply: { parts: [{ text: 'Olá! Em qual cidade?' }], usage: { prompt: 12, candidates: 5 } } }]);
    const reply = await p.generate(speak());
    expect(reply).toEqual({ text: 'Olá! Em qual cidade?', toolCalls: [], usage: { inputTokens: 12, outputTokens: 5 } });
    const [call] = server!.calls;
    expect(call).toMatchObject({ model: 'gemini-2.5-flash', stream: false, apiKey: 'g-test' });
    expect(call.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Quero um quarto em Curitiba' }] }],
      systemInstruction: { role: 'user', parts: [{ text: 'Você é o Concierge de um hotel.' }] },
      generationConfig: {},
    });
  });

  it('offers tools as function declarations with their JSON Schema, and maps calls and results in the history', async () => {
    const p = await provider([{ reply: { parts: [{ text: 'A diária é R$ 420.' }] } }]);
    await p.generate(
      speak({
        round: 2,
        tools: [precoTool, { name: 'ping' }],
        history: [
          { role: 'user', content: 'Quanto custa em Curitiba e em Recife?' },
          {
            role: 'assistant',
            content: 'Vou ver.',
            tool_calls: [
              { id: 'call-1-0', name: 'preco', arguments: { cidade: 'Curitiba' } },
              { id: 'call-1-1', name: 'preco', arguments: { cidade: 'Recife' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call-1-0', name: 'preco', content: '{"precoNoite":420}' },
          { role: 'tool', tool_call_id: 'call-1-1', name: 'preco', content: '{"error":"Tool \\"preco\\" is not available."}' },
        ],
      }),
    );
    const body = server!.bodies[0];
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'preco', description: 'Preço da diária em uma cidade.', parametersJsonSchema: precoTool.parameters },
          { name: 'ping' },
        ],
      },
    ]);
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Quanto custa em Curitiba e em Recife?' }] },
      {
        role: 'model',
        parts: [{ text: 'Vou ver.' }, { functionCall: { name: 'preco', args: { cidade: 'Curitiba' } } }, { functionCall: { name: 'preco', args: { cidade: 'Recife' } } }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'preco', response: { output: { precoNoite: 420 } } } },
          { functionResponse: { name: 'preco', response: { error: 'Tool "preco" is not available.' } } },
        ],
      },
    ]);
    expect(body.generationConfig).toEqual({});
  });

  it('returns one or several function calls with their arguments', async () => {
    const p = await provider([
      {
        reply: {
          parts: [
            { functionCall: { name: 'preco', args: { cidade: 'Curitiba' } } },
            { functionCall: { name: 'preco', args: { cidade: 'Recife' } } },
          ],
        },
      },
    ]);
    const reply = await p.generate(speak({ tools: [precoTool] }));
    expect(reply).toEqual({
      text: null,
      toolCalls: [
        { name: 'preco', arguments: { cidade: 'Curitiba' } },
        { name: 'preco', arguments: { cidade: 'Recife' } },
      ],
    });
  });

  it('without tools asks for JSON with responseMimeType and responseJsonSchema', async () => {
    const p = await provider([{ reply: { parts: [{ text: '{"fields":{"cidade":"Curitiba"}}' }] } }]);
    const reply = await p.generate(speak({ call: 'understand', round: 0, schema: understandSchema }));
    expect(reply.structured).toEqual({ fields: { cidade: 'Curitiba' } });
    expect(server!.bodies[0].generationConfig).toEqual({ responseMimeType: 'application/json', responseJsonSchema: understandSchema.schema });
  });

  it('with tools offers the tools, asks for the JSON in words at the end of the last user turn and parses the text', async () => {
    const p = await provider([{ reply: { parts: [{ text: '```json\n{"message":"A diária é R$ 420."}\n```' }] } }]);
    const schema = { name: 'speak', schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } };
    const reply = await p.generate(speak({ tools: [precoTool], schema }));
    expect(reply.structured).toEqual({ message: 'A diária é R$ 420.' });
    const body = server!.bodies[0];
    // Gemini 2.x refuses responseMimeType application/json together with function calling.
    expect(body.generationConfig).toEqual({});
    expect(body.tools[0].functionDeclarations[0].name).toBe('preco');
    // The step's schema changes from step to step: it goes after the history, not into the cached prefix.
    expect(body.systemInstruction.parts).toEqual([{ text: 'Você é o Concierge de um hotel.' }]);
    const lastTurn = body.contents[body.contents.length - 1];
    expect(lastTurn.role).toBe('user');
    expect(lastTurn.parts[lastTurn.parts.length - 1].text).toContain(JSON.stringify(schema.schema));
  });

  it('never puts thought parts in the text, and counts thinking tokens as output', async () => {
    const p = await provider([
      {
        reply: {
          parts: [{ text: 'The user wants a room; ask the city.', thought: true }, { text: 'Em qual cidade?' }],
          usage: { prompt: 40, candidates: 4, thoughts: 30, cached: 32 },
        },
      },
    ]);
    const reply = await p.generate(speak());
    expect(reply.text).toBe('Em qual cidade?');
    expect(reply.usage).toEqual({ inputTokens: 40, outputTokens: 34, cachedInputTokens: 32 });
  });

  it('gives a function call signature back when the call returns in the history', async () => {
    const p = await provider([
      { reply: { parts: [{ functionCall: { name: 'preco', args: { cidade: 'Curitiba' } }, thoughtSignature: 'c2lnLTE=' }] } },
      { reply: { parts: [{ text: 'R$ 420.' }] } },
    ]);
    await p.generate(speak({ tools: [precoTool] }));
    await p.generate(
      speak({
        round: 2,
        tools: [precoTool],
        history: [
          { role: 'user', content: 'Quanto custa?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call-1-0', name: 'preco', arguments: { cidade: 'Curitiba' } }] },
          { role: 'tool', tool_call_id: 'call-1-0', name: 'preco', content: '{"precoNoite":420}' },
        ],
      }),
    );
    expect(server!.bodies[1].contents[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { name: 'preco', args: { cidade: 'Curitiba' } }, thoughtSignature: 'c2lnLTE=' }],
    });
  });

  it('a request with no history still sends one user turn, since Gemini refuses empty contents', async () => {
    const p = await provider([{ reply: { parts: [{ text: 'Olá! Posso ajudar?' }] } }]);
    await p.generate(speak({ history: [] }));
    expect(server!.bodies[0].contents).toEqual([{ role: 'user', parts: [{ text: EMPTY_CONVERSATION }] }]);
  });

  it('on Gemini 3 a call it never saw gets the documented skip placeholder', async () => {
    const p = await provider([{ reply: { parts: [{ text: 'ok' }] } }], { model: 'gemini-3-flash-preview' });
    await p.generate(
      speak({
        history: [
          { role: 'assistant', content: null, tool_calls: [{ id: 'call-1-0', name: 'preco', arguments: { cidade: 'Recife' } }] },
          { role: 'tool', tool_call_id: 'call-1-0', name: 'preco', content: 'R$ 380' },
        ],
      }),
    );
    expect(server!.bodies[0].contents[0].parts[0].thoughtSignature).toBe(SKIP_SIGNATURE);
    expect(server!.bodies[0].contents[1].parts[0].functionResponse.response).toEqual({ output: 'R$ 380' });
  });

  describe('streaming', () => {
    it('streams text deltas through streamGenerateContent?alt=sse and ends with the reply', async () => {
      const p = await provider([
        {
          reply: {
            parts: [{ text: 'Pensando no preço.', thought: true }, { text: 'A diária em Curitiba é R$ 420.' }],
            usage: { prompt: 30, candidates: 9 },
          },
        },
      ]);
      const chunks = await collect(p.stream(speak()));
      const deltas = chunks.flatMap((c) => ('delta' in c ? [c.delta] : []));
      expect(deltas.length).toBeGreaterThan(3);
      expect(deltas.join('')).toBe('A diária em Curitiba é R$ 420.');
      expect(chunks[chunks.length - 1]).toEqual({
        done: true,
        reply: { text: 'A diária em Curitiba é R$ 420.', toolCalls: [], usage: { inputTokens: 30, outputTokens: 9 } },
      });
      expect(server!.calls[0].stream).toBe(true);
    });

    it('collects function calls from the stream', async () => {
      const p = await provider([
        { reply: { parts: [{ text: 'Um momento.' }, { functionCall: { name: 'preco', args: { cidade: 'Curitiba' } } }] } },
      ]);
      const chunks = await collect(p.stream(speak({ tools: [precoTool] })));
      expect(chunks[chunks.length - 1]).toEqual({
        done: true,
        reply: { text: 'Um momento.', toolCalls: [{ name: 'preco', arguments: { cidade: 'Curitiba' } }] },
      });
    });

    it('retries a failure that happens before any text, then streams', async () => {
      const p = await provider([{ error: { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded.' } }, { reply: { parts: [{ text: 'Oi!' }] } }]);
      const chunks = await collect(p.stream(speak()));
      expect(chunks[chunks.length - 1]).toEqual({ done: true, reply: { text: 'Oi!', toolCalls: [] } });
      expect(server!.calls.map((c) => c.stream)).toEqual([true, true]);
    });

    it('a stream cut inside an event, after text was yielded, is a network error and is not retried', async () => {
      const p = await provider([{ streamThenDrop: { parts: [{ text: 'Olá, tudo bem?' }] } }]);
      const seen: string[] = [];
      const err = await failure(
        (async () => {
          for await (const chunk of p.stream(speak())) if ('delta' in chunk) seen.push(chunk.delta);
        })(),
      );
      expect(err).toBeInstanceOf(ProviderError);
      expect(err.kind).toBe('network');
      expect(seen).toEqual(['Olá, ']);
      expect(server!.calls).toHaveLength(1);
    });
  });

  describe('streams that fail after text', () => {
    it('silence after the first event times out and is not retried', async () => {
      const p = await provider([{ streamThenHang: { parts: [{ text: 'Olá, tudo bem?' }] } }], { timeoutMs: 1_000, maxRetries: 2 });
      const seen: string[] = [];
      const err = await failure(
        (async () => {
          for await (const chunk of p.stream(speak())) if ('delta' in chunk) seen.push(chunk.delta);
        })(),
      );
      expect(err).toMatchObject({ kind: 'timeout', message: 'The provider did not answer within 1000 ms.' });
      expect(seen).toEqual(['Olá, ']);
      expect(server!.calls).toHaveLength(1);
    });

    it('an error event inside the stream is mapped by its code', async () => {
      const p = await provider([
        { streamThenError: { generation: { parts: [{ text: 'Olá, tudo bem?' }] }, error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } },
      ]);
      const err = await failure(collect(p.stream(speak())));
      expect(err).toMatchObject({ kind: 'overloaded', status: 503 });
      expect(server!.calls).toHaveLength(1);
    });
  });

  describe('failures', () => {
    const resourceExhausted = (details: unknown[], message = 'Resource has been exhausted (e.g. check quota).') => ({
      error: { code: 429, status: 'RESOURCE_EXHAUSTED', message, details },
    });

    it('429 with Retry-After: waits as told, retries, then succeeds', async () => {
      const p = await provider([
        { error: { ...resourceExhausted([]).error, headers: { 'retry-after': '1' } } },
        { reply: { parts: [{ text: 'Oi!' }] } },
      ]);
      const started = Date.now();
      expect((await p.generate(speak())).text).toBe('Oi!');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(server!.calls).toHaveLength(2);
    });

    it('429 per-minute limit on every attempt: rate-limited, with the RetryInfo delay', async () => {
      const p = await provider(
        [
          resourceExhausted([
            {
              '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
              violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }],
            },
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.02s' },
          ]),
        ],
        { maxRetries: 1 },
      );
      const err = await failure(p.generate(speak()));
      expect(err).toMatchObject({ kind: 'rate-limited', status: 429, retryAfterMs: 20 });
      expect(server!.calls).toHaveLength(2);
    });

    it('429 for a daily quota is quota with resetAt from RetryInfo, not retried', async () => {
      const p = await provider([
        resourceExhausted([
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' }] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3600s' },
        ]),
      ]);
      const before = Date.now();
      const err = await failure(p.generate(speak()));
      expect(err.kind).toBe('quota');
      expect(err.resetAt!.getTime()).toBeGreaterThanOrEqual(before + 3_600_000);
      expect(err.resetAt!.getTime()).toBeLessThan(Date.now() + 3_600_000 + 1_000);
      expect(server!.calls).toHaveLength(1);
    });

    it('429 for a spent quota without a reset is quota without resetAt', async () => {
      const p = await provider([resourceExhausted([], 'You exceeded your current quota, please check your plan and billing details.')]);
      const err = await failure(p.generate(speak()));
      expect(err.kind).toBe('quota');
      expect(err.resetAt).toBeUndefined();
    });

    it('401/403 and an invalid API key are auth', async () => {
      const p = await provider([
        {
          error: {
            code: 400,
            status: 'INVALID_ARGUMENT',
            message: 'API key not valid. Please pass a valid API key.',
            details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
          },
        },
        { error: { code: 403, status: 'PERMISSION_DENIED', message: 'Permission denied.' } },
        { error: { code: 401, status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' } },
      ]);
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'auth', status: 400 });
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'auth', status: 403 });
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'auth', status: 401 });
      expect(server!.calls).toHaveLength(3);
    });

    it('400 for too many input tokens is context', async () => {
      const p = await provider([
        { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).' } },
      ]);
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'context', status: 400 });
    });

    it('400 for anything else and 404 for an unknown model are invalid', async () => {
      const p = await provider([
        { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'Invalid JSON payload received. Unknown name "foo".' } },
        { error: { code: 404, status: 'NOT_FOUND', message: 'models/gemini-nope is not found for API version v1beta.' } },
      ]);
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'invalid', status: 400 });
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'invalid', status: 404 });
      expect(server!.calls).toHaveLength(2);
    });

    it('500 is retried then unknown; 503 is retried then overloaded', async () => {
      const p = await provider([{ error: { code: 500, status: 'INTERNAL', message: 'An internal error has occurred.' } }], { maxRetries: 1 });
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'unknown', status: 500 });
      expect(server!.calls).toHaveLength(2);
      await server!.close();
      const q = await provider([{ error: { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' } }], { maxRetries: 2 });
      expect(await failure(q.generate(speak()))).toMatchObject({ kind: 'overloaded', status: 503 });
      expect(server!.calls).toHaveLength(3);
    });

    it('a hung server times out per attempt', async () => {
      const p = await provider([{ hang: true }], { timeoutMs: 800, maxRetries: 1 });
      const started = Date.now();
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'timeout' });
      expect(server!.calls).toHaveLength(2);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('a dropped connection is network', async () => {
      const p = await provider([{ drop: true }], { maxRetries: 1 });
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'network' });
      expect(server!.calls).toHaveLength(2);
    });

    it('an empty candidate is empty; a blocked prompt or safety stop is invalid', async () => {
      const p = await provider([
        { reply: { parts: [], finishReason: 'MAX_TOKENS' } },
        { reply: { blockReason: 'PROHIBITED_CONTENT' } },
        { reply: { parts: [], finishReason: 'SAFETY' } },
        { reply: { parts: [{ text: 'only thinking', thought: true }] } },
      ]);
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'empty' });
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'invalid' });
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'invalid' });
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'empty' });
    });

    it("the caller's signal stops the call and its retries", async () => {
      const controller = new AbortController();
      // Abort once the request is in flight at the server.
      const p = await provider(
        () => {
          setTimeout(() => controller.abort(), 20);
          return { hang: true };
        },
        { timeoutMs: 10_000, maxRetries: 3 },
      );
      const err = await failure(p.generate(speak({ signal: controller.signal })));
      expect(err).toMatchObject({ kind: 'timeout', message: 'The request was aborted by the caller.' });
      expect(server!.calls).toHaveLength(1);
    });
  });
});

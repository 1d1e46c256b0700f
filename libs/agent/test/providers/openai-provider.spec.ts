import { ProviderError } from '../../src/provider';
import { OpenAIProvider } from '../../src/providers';
import { FakeOpenAIServer, type OpenAIStep, type OpenAIScript } from '../fakes/fake-openai-server';
import { collect, failure, fastRetry, precoTool, speak, understandSchema } from './requests';

// Real HTTP servers and SDKs: allow for a busy CI machine (the default is 5 s per test).
jest.setTimeout(30_000);

describe('OpenAIProvider against a fake Chat Completions server', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function provider(steps: OpenAIStep[] | OpenAIScript, options: Partial<ConstructorParameters<typeof OpenAIProvider>[0]> = {}) {
    server = await FakeOpenAIServer.start(steps);
    return new OpenAIProvider({ apiKey: 'sk-test', model: 'gpt-test', baseURL: server.baseURL, retry: fastRetry, ...options });
  }

  it('returns the text of a plain reply and sends system + history as messages', async () => {
    const p = await provider([{ reply: { content: 'Olá! Em qual cidade?', usage: { prompt: 12, completion: 5 } } }]);
    const reply = await p.generate(speak());
    expect(reply).toEqual({ text: 'Olá! Em qual cidade?', toolCalls: [], usage: { inputTokens: 12, outputTokens: 5, cachedInputTokens: 0 } });
    const [received] = server!.requests;
    expect(received.headers.authorization).toBe('Bearer sk-test');
    expect(received.body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Você é o Concierge de um hotel.' },
        { role: 'user', content: 'Quero um quarto em Curitiba' },
      ],
      stream: false,
    });
  });

  it('maps assistant tool calls and tool results, and offers tools as functions with parallel calls', async () => {
    const p = await provider([{ reply: { content: 'A diária é R$ 420.' } }]);
    await p.generate(
      speak({
        round: 2,
        tools: [precoTool, { name: 'ping' }],
        history: [
          { role: 'user', content: 'Quanto custa em Curitiba?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call-1-0', name: 'preco', arguments: { cidade: 'Curitiba' } }] },
          { role: 'tool', tool_call_id: 'call-1-0', name: 'preco', content: '{"precoNoite":420}' },
        ],
      }),
    );
    const body = server!.bodies[0];
    expect(body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Quanto custa em Curitiba?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call-1-0', type: 'function', function: { name: 'preco', arguments: '{"cidade":"Curitiba"}' } }],
      },
      { role: 'tool', tool_call_id: 'call-1-0', content: '{"precoNoite":420}' },
    ]);
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'preco', description: 'Preço da diária em uma cidade.', parameters: precoTool.parameters } },
      { type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } },
    ]);
    expect(body.parallel_tool_calls).toBe(true);
  });

  it('returns one tool call with its JSON arguments parsed', async () => {
    const p = await provider([{ reply: { toolCalls: [{ name: 'preco', arguments: '{"cidade":"Curitiba"}' }] } }]);
    const reply = await p.generate(speak({ tools: [precoTool] }));
    expect(reply.text).toBeNull();
    expect(reply.toolCalls).toEqual([{ name: 'preco', arguments: { cidade: 'Curitiba' } }]);
  });

  it('returns several tool calls in order, passing arguments that are not valid JSON on as the raw string', async () => {
    const p = await provider([
      {
        reply: {
          content: 'Vou verificar.',
          toolCalls: [
            { name: 'preco', arguments: '{"cidade":"Curitiba"}' },
            { name: 'preco', arguments: '{"cidade": Curitiba' },
            { name: 'ping', arguments: '' },
          ],
        },
      },
    ]);
    const reply = await p.generate(speak({ tools: [precoTool, { name: 'ping' }] }));
    expect(reply.text).toBe('Vou verificar.');
    expect(reply.toolCalls).toEqual([
      { name: 'preco', arguments: { cidade: 'Curitiba' } },
      { name: 'preco', arguments: '{"cidade": Curitiba' },
      { name: 'ping', arguments: {} },
    ]);
  });

  it('asks for a structured reply with response_format json_schema and parses it', async () => {
    const p = await provider([{ reply: { content: '{"fields":{"cidade":"Curitiba"}}' } }]);
    const reply = await p.generate(speak({ call: 'understand', round: 0, schema: understandSchema }));
    expect(reply.structured).toEqual({ fields: { cidade: 'Curitiba' } });
    expect(server!.bodies[0].response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'understand', schema: understandSchema.schema, strict: false },
    });
  });

  it('in json_object mode asks for the schema in the system message and parses a fenced reply', async () => {
    const p = await provider([{ reply: { content: '```json\n{"fields":{"cidade":"Recife"}}\n```' } }], { responseFormat: 'json_object' });
    const reply = await p.generate(speak({ call: 'understand', round: 0, schema: understandSchema }));
    expect(reply.structured).toEqual({ fields: { cidade: 'Recife' } });
    const body = server!.bodies[0];
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages[0].content).toContain('Você é o Concierge de um hotel.');
    expect(body.messages[0].content).toContain(JSON.stringify(understandSchema.schema));
  });

  it('leaves structured undefined when the reply does not parse', async () => {
    const p = await provider([{ reply: { content: 'Curitiba, acho.' } }]);
    const reply = await p.generate(speak({ schema: understandSchema }));
    expect(reply.text).toBe('Curitiba, acho.');
    expect(reply.structured).toBeUndefined();
  });

  it('reports cached prompt tokens', async () => {
    const p = await provider([{ reply: { content: 'ok', usage: { prompt: 2000, completion: 10, cached: 1536 } } }]);
    expect((await p.generate(speak())).usage).toEqual({ inputTokens: 2000, outputTokens: 10, cachedInputTokens: 1536 });
  });

  describe('streaming', () => {
    it('yields text deltas and ends with the same reply generate would give, usage included', async () => {
      const p = await provider([{ reply: { content: 'A diária em Curitiba é R$ 420.', usage: { prompt: 30, completion: 9, cached: 0 } } }]);
      const chunks = await collect(p.stream(speak()));
      const deltas = chunks.flatMap((c) => ('delta' in c ? [c.delta] : []));
      expect(deltas.length).toBeGreaterThan(3);
      expect(deltas.join('')).toBe('A diária em Curitiba é R$ 420.');
      expect(chunks[chunks.length - 1]).toEqual({
        done: true,
        reply: { text: 'A diária em Curitiba é R$ 420.', toolCalls: [], usage: { inputTokens: 30, outputTokens: 9, cachedInputTokens: 0 } },
      });
      expect(server!.bodies[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    });

    it('reassembles tool-call fragments by index', async () => {
      const p = await provider([
        {
          reply: {
            content: 'Um momento.',
            toolCalls: [
              { name: 'preco', arguments: '{"cidade":"Curitiba"}' },
              { name: 'preco', arguments: '{"cidade":"São Paulo"}' },
            ],
          },
        },
      ]);
      const chunks = await collect(p.stream(speak({ tools: [precoTool] })));
      const done = chunks[chunks.length - 1];
      expect(done).toEqual({
        done: true,
        reply: {
          text: 'Um momento.',
          toolCalls: [
            { name: 'preco', arguments: { cidade: 'Curitiba' } },
            { name: 'preco', arguments: { cidade: 'São Paulo' } },
          ],
        },
      });
    });

    it('retries a failure that happens before any text, then streams', async () => {
      const p = await provider([{ error: { status: 503, message: 'overloaded', type: 'server_error' } }, { reply: { content: 'Oi!' } }]);
      const chunks = await collect(p.stream(speak()));
      expect(chunks[chunks.length - 1]).toEqual({ done: true, reply: { text: 'Oi!', toolCalls: [] } });
      expect(server!.requests).toHaveLength(2);
    });

    it('does not retry once text reached the reader: a dropped stream is a network error', async () => {
      const p = await provider([{ streamThenDrop: { content: 'Olá, tudo bem com você hoje?' } }]);
      const seen: string[] = [];
      const err = await failure(
        (async () => {
          for await (const chunk of p.stream(speak())) if ('delta' in chunk) seen.push(chunk.delta);
        })(),
      );
      expect(err).toBeInstanceOf(ProviderError);
      expect(err.kind).toBe('network');
      expect(seen.join('')).toBe('Olá, ');
      expect(server!.requests).toHaveLength(1);
    });

    it('a stream that goes silent after text times out (the timer bounds silence) and is not retried', async () => {
      const p = await provider([{ streamThenHang: { content: 'Olá, tudo bem com você?' } }], { timeoutMs: 1_000, maxRetries: 2 });
      const seen: string[] = [];
      const err = await failure(
        (async () => {
          for await (const chunk of p.stream(speak())) if ('delta' in chunk) seen.push(chunk.delta);
        })(),
      );
      expect(err).toMatchObject({ kind: 'timeout', message: 'The provider did not answer within 1000 ms.' });
      expect(seen).toEqual(['Olá, ']);
      expect(server!.requests).toHaveLength(1);
    });

    it('a reader slower than the timeout does not time the stream out', async () => {
      const p = await provider([{ reply: { content: 'Uma resposta em várias partes.' } }], { timeoutMs: 500, maxRetries: 0 });
      const seen: string[] = [];
      for await (const chunk of p.stream(speak())) {
        if ('delta' in chunk) {
          seen.push(chunk.delta);
          if (seen.length === 1) await new Promise((resolve) => setTimeout(resolve, 1_200));
        }
      }
      expect(seen.join('')).toBe('Uma resposta em várias partes.');
    });

    it("the caller's abort while the reader holds a delta ends the stream promptly", async () => {
      const p = await provider([{ reply: { content: 'Uma resposta em várias partes.' } }], { timeoutMs: 5_000, maxRetries: 0 });
      const controller = new AbortController();
      const started = Date.now();
      const err = await failure(
        (async () => {
          for await (const chunk of p.stream(speak({ signal: controller.signal }))) {
            if ('delta' in chunk) {
              controller.abort();
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }
        })(),
      );
      expect(err).toMatchObject({ kind: 'timeout', message: 'The request was aborted by the caller.' });
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it('an error event inside the stream is mapped by its type', async () => {
      const p = await provider([
        { streamThenError: { completion: { content: 'Olá, tudo bem?' }, error: { message: 'The server is overloaded', type: 'server_error' } } },
      ]);
      const err = await failure(collect(p.stream(speak())));
      expect(err).toMatchObject({ kind: 'overloaded' });
      expect(err.status).toBeUndefined();
      expect(server!.requests).toHaveLength(1);
    });

    it('an empty stream is an empty reply', async () => {
      const p = await provider([{ reply: { content: '' } }]);
      const err = await failure(collect(p.stream(speak())));
      expect(err.kind).toBe('empty');
    });
  });

  describe('failures', () => {
    it('429 with Retry-After: waits as told, retries, then succeeds', async () => {
      const p = await provider([
        { error: { status: 429, message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded', headers: { 'retry-after': '1' } } },
        { reply: { content: 'Oi!' } },
      ]);
      const started = Date.now();
      const reply = await p.generate(speak());
      expect(reply.text).toBe('Oi!');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(server!.requests).toHaveLength(2);
    });

    it('429 on every attempt: rate-limited after maxRetries, with retryAfterMs', async () => {
      const p = await provider(
        [{ error: { status: 429, message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded', headers: { 'retry-after-ms': '20' } } }],
        { maxRetries: 2 },
      );
      const err = await failure(p.generate(speak()));
      expect(err).toBeInstanceOf(ProviderError);
      expect(err).toMatchObject({ kind: 'rate-limited', status: 429, retryAfterMs: 20 });
      expect(server!.requests).toHaveLength(3);
    });

    it('a Retry-After longer than the policy allows is not waited out inside the round', async () => {
      const p = await provider([{ error: { status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded', headers: { 'retry-after': '120' } } }]);
      const err = await failure(p.generate(speak()));
      expect(err).toMatchObject({ kind: 'rate-limited', retryAfterMs: 120_000 });
      expect(server!.requests).toHaveLength(1);
    });

    it('429 insufficient_quota is quota and is not retried', async () => {
      const p = await provider([{ error: { status: 429, message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } }]);
      const err = await failure(p.generate(speak()));
      expect(err).toMatchObject({ kind: 'quota', status: 429 });
      expect(err.resetAt).toBeUndefined();
      expect(server!.requests).toHaveLength(1);
    });

    it('401 is auth', async () => {
      const p = await provider([{ error: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' } }]);
      const err = await failure(p.generate(speak()));
      expect(err).toMatchObject({ kind: 'auth', status: 401 });
      expect(server!.requests).toHaveLength(1);
    });

    it('400 context_length_exceeded is context', async () => {
      const p = await provider([
        { error: { status: 400, message: "This model's maximum context length is 128000 tokens.", code: 'context_length_exceeded' } },
      ]);
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'context', status: 400 });
    });

    it('400 for anything else is invalid', async () => {
      const p = await provider([{ error: { status: 400, message: "Invalid schema for response_format 'understand'", code: 'invalid_request_error' } }]);
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'invalid', status: 400 });
    });

    it('404 model not found is invalid', async () => {
      const p = await provider([{ error: { status: 404, message: 'The model `gpt-nope` does not exist', code: 'model_not_found' } }]);
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'invalid', status: 404 });
      expect(server!.requests).toHaveLength(1);
    });

    it('500 is retried, then reported as unknown', async () => {
      const p = await provider([{ error: { status: 500, message: 'The server had an error', type: 'server_error' } }], { maxRetries: 1 });
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'unknown', status: 500 });
      expect(server!.requests).toHaveLength(2);
    });

    it('503 is retried, then reported as overloaded', async () => {
      const p = await provider([{ error: { status: 503, message: 'The engine is currently overloaded', type: 'server_error' } }], { maxRetries: 2 });
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'overloaded', status: 503 });
      expect(server!.requests).toHaveLength(3);
    });

    it('the SDK does not retry on its own: maxRetries 0 makes exactly one request', async () => {
      const p = await provider([{ error: { status: 503, message: 'overloaded', type: 'server_error' } }], { maxRetries: 0 });
      await failure(p.generate(speak()));
      expect(server!.requests).toHaveLength(1);
    });

    it('a hung server times out per attempt', async () => {
      const p = await provider([{ hang: true }], { timeoutMs: 800, maxRetries: 1 });
      const started = Date.now();
      const err = await failure(p.generate(speak()));
      expect(err).toMatchObject({ kind: 'timeout' });
      expect(server!.requests).toHaveLength(2);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('a dropped connection is network', async () => {
      const p = await provider([{ drop: true }], { maxRetries: 1 });
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'network' });
      expect(server!.requests).toHaveLength(2);
    });

    it('an empty completion is empty', async () => {
      const p = await provider([{ reply: { content: '   ' } }]);
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'empty' });
    });

    it('a refusal is invalid', async () => {
      const p = await provider([{ reply: { content: null, refusal: 'I can’t help with that.' } }]);
      expect(await failure(p.generate(speak()))).toMatchObject({ kind: 'invalid' });
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
      expect(server!.requests).toHaveLength(1);
    });
  });
});

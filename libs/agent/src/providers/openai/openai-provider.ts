// AiProvider on the official `openai` SDK, Chat Completions API. `baseURL` points it at any
// OpenAI-compatible server: vLLM, Ollama, LM Studio, Groq, Azure, gateways.
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions/completions';
import type { AiProvider, ModelReply, ModelRequest, StreamChunk } from '../../provider';
import { DEFAULT_TIMEOUT_MS } from '../attempt';
import { ProviderConfigurationError } from '../provider-configuration-error';
import { resolveRetryPolicy, type RetryPolicy } from '../retry';
import { runRound, runStreamRound, type RoundOptions } from '../round';
import { scrubProviderError, scrubStreamErrors } from '../scrub-secrets';
import type { FetchLike } from '../transport';
import { mapOpenAIError } from './map-error';
import { openaiSdk } from './sdk';
import { chunkAccumulator, fromChatCompletion } from './map-reply';
import { toChatCompletionBody, type ResponseFormatMode } from './map-request';

export interface OpenAIProviderOptions {
  apiKey: string;
  model: string;
  /** Any OpenAI-compatible server, e.g. `http://127.0.0.1:11434/v1` for Ollama. */
  baseURL?: string;
  /** Sent with every request; a null value removes a header the SDK would add (Authorization for a server without keys). */
  defaultHeaders?: Record<string, string | null>;
  /** Per attempt; while streaming, the longest silence between chunks. Default 60 s; 0 disables. */
  timeoutMs?: number;
  /** Retries inside one round for retryable failures. Default 2. */
  maxRetries?: number;
  /** `json_object` for servers without `json_schema` support: the schema is then asked for in the
   *  system instructions and the reply parsed. Default `json_schema`. */
  responseFormat?: ResponseFormatMode;
  /** OpenAI strict structured outputs (every property required, no extras). Default false. */
  strictSchema?: boolean;
  /**
   * Declare every tool of the agent and narrow the callable ones with `tool_choice: allowed_tools`
   * (prompt caching, docs/cost.md). Default: true without `baseURL` (OpenAI itself), false with
   * one, since a compatible server may not know `allowed_tools`; it then gets the step's tools only.
   */
  allowedTools?: boolean;
  /** Backoff tuning; `maxRetries` above wins over `retry.maxRetries`. */
  retry?: Partial<RetryPolicy>;
  /** Provider name reported in traces. Default "openai". */
  name?: string;
  /** The transport every request goes through (the host's outbound guard); global fetch when absent. */
  fetch?: FetchLike;
}

export class OpenAIProvider implements AiProvider {
  readonly name: string;
  readonly model: string;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;
  private readonly policy: RetryPolicy;
  private readonly responseFormat: ResponseFormatMode;
  private readonly strictSchema: boolean;
  private readonly contextAt: 'last' | 'system';
  private readonly allowedTools: boolean;
  /** Cut out of every error message this provider lets out (scrub-secrets.ts). */
  private readonly secrets: string[];

  constructor(options: OpenAIProviderOptions) {
    if (!options.model?.trim()) throw new ProviderConfigurationError('provider-model-missing', 'OpenAIProvider needs a `model`, e.g. "gpt-4.1-mini".');
    if (typeof options.apiKey !== 'string' || options.apiKey === '') {
      throw new ProviderConfigurationError(
        'provider-key-missing',
        'OpenAIProvider needs an `apiKey`. For a server that takes none (Ollama, vLLM without --api-key), pass any placeholder such as "none".',
      );
    }
    if (options.responseFormat !== undefined && options.responseFormat !== 'json_schema' && options.responseFormat !== 'json_object') {
      throw new ProviderConfigurationError('provider-option-invalid', `responseFormat must be "json_schema" or "json_object", not ${JSON.stringify(options.responseFormat)}.`);
    }
    this.name = options.name ?? 'openai';
    this.model = options.model;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.policy = resolveRetryPolicy(options.maxRetries, options.retry);
    this.responseFormat = options.responseFormat ?? 'json_schema';
    this.strictSchema = options.strictSchema ?? false;
    // OpenAI itself takes a system message after the history; a compatible server's template may not.
    this.contextAt = options.baseURL ? 'system' : 'last';
    this.allowedTools = options.allowedTools ?? !options.baseURL;
    this.secrets = [options.apiKey];
    this.client = new (openaiSdk().OpenAI)({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      defaultHeaders: options.defaultHeaders,
      // Our retry loop is the only one; the SDK's would multiply it.
      maxRetries: 0,
      // Our per-attempt timer (round.ts) is the one that counts; this is a backstop.
      timeout: this.timeoutMs > 0 ? this.timeoutMs + 1_000 : undefined,
      // Never pick up the host's OpenAI organisation/project/admin key from the environment:
      // a tenant's baseURL must not receive them.
      organization: null,
      project: null,
      adminAPIKey: null,
      ...(options.fetch && { fetch: options.fetch }),
    });
  }

  generate(req: ModelRequest): Promise<ModelReply> {
    const body = this.body(req);
    return runRound(async (signal) => {
      const completion: ChatCompletion = await this.client.chat.completions.create({ ...body, stream: false }, { signal });
      return fromChatCompletion(completion, req.schema !== undefined);
    }, this.roundOptions(req)).catch((err: unknown) => {
      throw scrubProviderError(err, this.secrets);
    });
  }

  stream(req: ModelRequest): AsyncIterable<StreamChunk> {
    const body = this.body(req);
    const chunks = runStreamRound<ChatCompletionChunk>({
      ...this.roundOptions(req),
      open: (signal) => this.client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal }),
      accumulator: () => chunkAccumulator(req.schema !== undefined),
    });
    return scrubStreamErrors(chunks, this.secrets);
  }

  private body(req: ModelRequest) {
    return toChatCompletionBody(req, { model: this.model, responseFormat: this.responseFormat, strictSchema: this.strictSchema, contextAt: this.contextAt, allowedTools: this.allowedTools });
  }

  private roundOptions(req: ModelRequest): RoundOptions {
    return { timeoutMs: this.timeoutMs, policy: this.policy, signal: req.signal, mapError: mapOpenAIError };
  }
}

// AiProvider on the official `@google/genai` SDK (Gemini Developer API, generateContent).
import { genaiSdk, type GenerateContentResponse, type GoogleGenAI } from './sdk';
import type { AiProvider, ModelReply, ModelRequest, StreamChunk } from '../../provider';
import { DEFAULT_TIMEOUT_MS } from '../attempt';
import { ProviderConfigurationError } from '../provider-configuration-error';
import { parseRetryAfter, resolveRetryPolicy, type RetryPolicy } from '../retry';
import { runRound, runStreamRound, type RoundOptions } from '../round';
import { scrubProviderError, scrubStreamErrors } from '../scrub-secrets';
import type { FetchLike } from '../transport';
import { mapGeminiError } from './map-error';
import { fromGenerateContentResponse, responseAccumulator } from './map-reply';
import { toGeminiRequest, type GeminiRequest } from './map-request';
import { requiresSignatures, ThoughtSignatures } from './thought-signatures';

export interface GeminiProviderOptions {
  apiKey: string;
  model: string;
  /** Another endpoint for the Gemini API (a proxy, a test server). */
  baseUrl?: string;
  /** Per attempt; while streaming, the longest silence between chunks. Default 60 s; 0 disables. */
  timeoutMs?: number;
  /** Retries inside one round for retryable failures. Default 2. */
  maxRetries?: number;
  retry?: Partial<RetryPolicy>;
  /** Provider name reported in traces. Default "gemini". */
  name?: string;
  /** The transport every request goes through (the host's outbound guard); global fetch when absent. */
  fetch?: FetchLike;
}

export class GeminiProvider implements AiProvider {
  readonly name: string;
  readonly model: string;
  private readonly client: GoogleGenAI;
  private readonly timeoutMs: number;
  private readonly policy: RetryPolicy;
  private readonly signatures = new ThoughtSignatures();
  /** Cut out of every error message this provider lets out (scrub-secrets.ts). */
  private readonly secrets: string[];
  private readonly fetch: FetchLike;

  constructor(options: GeminiProviderOptions) {
    if (!options.model?.trim()) throw new ProviderConfigurationError('provider-model-missing', 'GeminiProvider needs a `model`, e.g. "gemini-2.5-flash".');
    if (typeof options.apiKey !== 'string') {
      throw new ProviderConfigurationError('provider-key-missing', 'GeminiProvider needs an `apiKey` (a Gemini API key from Google AI Studio).');
    }
    this.name = options.name ?? 'gemini';
    this.model = options.model;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.policy = resolveRetryPolicy(options.maxRetries, options.retry);
    this.secrets = [options.apiKey];
    this.fetch = options.fetch ?? fetch;
    this.client = new (genaiSdk().GoogleGenAI)({
      apiKey: options.apiKey,
      // Always the Gemini Developer API, whatever GOOGLE_GENAI_USE_VERTEXAI says.
      vertexai: false,
      // No retryOptions: the SDK then makes one attempt, and our retry loop is the only one.
      httpOptions: options.baseUrl ? { baseUrl: options.baseUrl } : undefined,
    });
  }

  generate(req: ModelRequest): Promise<ModelReply> {
    const request = this.request(req);
    const failed = new FailedResponse(this.fetch);
    return runRound(async (signal) => {
      failed.reset();
      const response = await this.client.models.generateContent(withTransport(request, signal, failed));
      return fromGenerateContentResponse(response, req.schema !== undefined, this.signatures);
    }, this.roundOptions(req, failed)).catch((err: unknown) => {
      throw scrubProviderError(err, this.secrets);
    });
  }

  stream(req: ModelRequest): AsyncIterable<StreamChunk> {
    const request = this.request(req);
    const failed = new FailedResponse(this.fetch);
    const chunks = runStreamRound<GenerateContentResponse>({
      ...this.roundOptions(req, failed),
      open: (signal) => {
        failed.reset();
        return this.client.models.generateContentStream(withTransport(request, signal, failed));
      },
      accumulator: () => responseAccumulator(req.schema !== undefined, this.signatures),
    });
    return scrubStreamErrors(chunks, this.secrets);
  }

  private request(req: ModelRequest): GeminiRequest {
    return toGeminiRequest(req, { model: this.model, signatures: this.signatures, requiresSignatures: requiresSignatures(this.model) });
  }

  private roundOptions(req: ModelRequest, failed: FailedResponse): RoundOptions {
    return { timeoutMs: this.timeoutMs, policy: this.policy, signal: req.signal, mapError: (err) => mapGeminiError(err, failed.retryAfterMs) };
  }
}

/**
 * The SDK's ApiError keeps the status and body but drops the headers, so a recording fetch
 * notes the Retry-After of a failed response for the error mapping.
 */
class FailedResponse {
  retryAfterMs: number | undefined;

  constructor(private readonly transport: FetchLike) {}

  reset(): void {
    this.retryAfterMs = undefined;
  }

  readonly fetch = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const response = await this.transport(input, init);
    if (!response.ok) this.retryAfterMs = parseRetryAfter(response.headers);
    return response;
  };
}

function withTransport(request: GeminiRequest, signal: AbortSignal, failed: FailedResponse): GeminiRequest {
  return { ...request, config: { ...request.config, abortSignal: signal, httpOptions: { fetch: failed.fetch } } };
}

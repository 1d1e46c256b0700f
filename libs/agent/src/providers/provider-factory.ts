// Builds the provider an agent's configuration names. The platform stores `{ kind, model,
// baseURL?, credentialId? }` (AgentConfig.provider); the host resolves the credential to a key
// and calls this. Every mistake is a ProviderConfigurationError before any network call.
import type { AiProvider } from '../provider';
import { ScriptedProvider, ScriptError } from '../scripted';
import { GeminiProvider } from './gemini/gemini-provider';
import { OpenAIProvider } from './openai/openai-provider';
import type { ResponseFormatMode } from './openai/map-request';
import { ProviderConfigurationError } from './provider-configuration-error';
import type { RetryPolicy } from './retry';
import type { FetchLike } from './transport';

export const PROVIDER_KINDS = ['openai', 'gemini', 'openai-compatible', 'scripted'] as const;
export type ProviderName = (typeof PROVIDER_KINDS)[number];

export interface ProviderFactoryConfig {
  provider: ProviderName;
  model: string;
  /** OpenAI-compatible server root including the version, e.g. `http://127.0.0.1:11434/v1`;
   *  for `gemini`, another endpoint of the Gemini API. */
  baseURL?: string;
  credentials?: { apiKey?: string };
  /** The ScriptedProvider's JSON rules (`{ rules: [...] }` or an array), for `scripted`. */
  scripted?: unknown;
  timeoutMs?: number;
  maxRetries?: number;
  retry?: Partial<RetryPolicy>;
  /** OpenAI and compatible servers only. */
  responseFormat?: ResponseFormatMode;
  defaultHeaders?: Record<string, string>;
  /** The transport of every request (the host's outbound guard); global fetch when absent. */
  fetch?: FetchLike;
}

/**
 * The key an OpenAI-compatible server without authentication is built with: the SDK refuses to
 * run without one, and reading OPENAI_API_KEY from the host's environment would send the
 * platform's own key to a tenant's server. It is never sent: such a provider drops the
 * Authorization header altogether.
 */
export const NO_API_KEY = 'none';

export function createProvider(config: ProviderFactoryConfig): AiProvider {
  const name = config?.provider as string;
  if (!(PROVIDER_KINDS as readonly string[]).includes(name)) {
    throw new ProviderConfigurationError(
      'provider-unknown',
      `Unknown provider ${JSON.stringify(name)}. Use one of: ${PROVIDER_KINDS.map((k) => `"${k}"`).join(', ')}.`,
    );
  }
  if (name === 'scripted') return scripted(config.scripted);
  if (typeof config.model !== 'string' || config.model.trim() === '') {
    throw new ProviderConfigurationError('provider-model-missing', `Provider "${name}" needs a model name, e.g. ${name === 'gemini' ? '"gemini-2.5-flash"' : '"gpt-4.1-mini"'}.`);
  }
  const apiKey = config.credentials?.apiKey?.trim() || undefined;
  const common = { model: config.model, timeoutMs: config.timeoutMs, maxRetries: config.maxRetries, retry: config.retry, fetch: config.fetch };

  switch (name) {
    case 'openai':
      return new OpenAIProvider({
        ...common,
        apiKey: required(apiKey, name),
        baseURL: config.baseURL,
        defaultHeaders: config.defaultHeaders,
        responseFormat: config.responseFormat,
        // OpenAI's own API, wherever its baseURL points (a proxy, a gateway): it knows allowed_tools.
        allowedTools: true,
      });
    case 'openai-compatible':
      if (!config.baseURL?.trim()) {
        throw new ProviderConfigurationError(
          'provider-base-url-missing',
          'Provider "openai-compatible" needs a baseURL, e.g. "http://127.0.0.1:11434/v1" (Ollama) or "http://127.0.0.1:8000/v1" (vLLM).',
        );
      }
      return new OpenAIProvider({
        ...common,
        name: 'openai-compatible',
        apiKey: apiKey ?? NO_API_KEY,
        baseURL: config.baseURL,
        // null removes the header the SDK would build from the placeholder key.
        defaultHeaders: apiKey === undefined ? { ...config.defaultHeaders, Authorization: null } : config.defaultHeaders,
        responseFormat: config.responseFormat,
      });
    default:
      return new GeminiProvider({ ...common, apiKey: required(apiKey, name), baseUrl: config.baseURL });
  }
}

function required(apiKey: string | undefined, provider: string): string {
  if (apiKey === undefined) {
    throw new ProviderConfigurationError('provider-key-missing', `Provider "${provider}" needs an API key: add a credential to the agent's provider settings.`);
  }
  return apiKey;
}

function scripted(rules: unknown): AiProvider {
  try {
    return ScriptedProvider.fromJson(rules ?? { rules: [] });
  } catch (err) {
    if (err instanceof ScriptError) throw new ProviderConfigurationError('provider-script-invalid', `Provider "scripted" has bad rules: ${err.message}`, err);
    throw err;
  }
}

// Providers shipped with the engine (engine.md §4).
export * from './openai/openai-provider';
export * from './gemini/gemini-provider';
export * from './provider-configuration-error';
export type { ResponseFormatMode } from './openai/map-request';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
export { DEFAULT_TIMEOUT_MS } from './attempt';
export * from './provider-factory';
export * from './scrub-secrets';
export type { FetchLike } from './transport';

// What the openai SDK throws → ProviderError with the kind engine.md §4 maps to an outcome.
import type { APIError } from 'openai';
import { ProviderError, type ProviderErrorKind } from '../../provider';
import { isNetworkFailure, policyRefusal } from '../network-error';
import { parseRetryAfter } from '../retry';
import { openaiSdk } from './sdk';

const CONTEXT_CODES = new Set(['context_length_exceeded', 'string_above_max_length']);
const CONTEXT_MESSAGE = /context (length|window)|maximum context|too many tokens|prompt is too long|reduce the length/i;
const QUOTA_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached']);

export function mapOpenAIError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = openaiSdk();
  // Order matters: the timeout and abort errors are subclasses of APIError.
  if (err instanceof APIConnectionTimeoutError) return new ProviderError({ kind: 'timeout', message: 'The request to the OpenAI server timed out.', cause: err });
  if (err instanceof APIUserAbortError) return new ProviderError({ kind: 'timeout', message: 'The request was aborted.', cause: err });
  const refused = policyRefusal(err);
  if (refused) return new ProviderError({ kind: 'invalid', message: `The request to the OpenAI server was refused before it left: ${refused.message}`, cause: err });
  if (err instanceof APIConnectionError) {
    return new ProviderError({ kind: 'network', message: `Could not reach the OpenAI server: ${causeMessage(err)}`, cause: err });
  }
  if (err instanceof APIError) return fromApiError(err);
  if ((err as Error)?.name === 'AbortError') return new ProviderError({ kind: 'timeout', message: 'The request was aborted.', cause: err });
  if (isNetworkFailure(err)) {
    return new ProviderError({ kind: 'network', message: `The connection to the OpenAI server failed: ${(err as Error).message}`, cause: err });
  }
  return new ProviderError({ kind: 'unknown', message: `Unexpected error from the OpenAI client: ${String((err as Error)?.message ?? err)}`, cause: err });
}

function fromApiError(err: APIError): ProviderError {
  const status = err.status;
  const code = err.code ?? undefined;
  const type = err.type ?? undefined;
  const detail = err.message;
  const make = (kind: ProviderErrorKind, message: string, extra: { retryAfterMs?: number } = {}) =>
    new ProviderError({ kind, message: `${message} (${detail})`, status, cause: err, ...extra });

  // An error event inside a stream has no status: read its code and message alone.
  if (status === undefined) {
    if (code && CONTEXT_CODES.has(code)) return make('context', 'The conversation is longer than the model accepts');
    if ((code && QUOTA_CODES.has(code)) || type === 'insufficient_quota') return make('quota', 'The account has no quota left');
    if (code === 'rate_limit_exceeded') return make('rate-limited', 'The server is rate limiting requests');
    if (type === 'server_error' || /overloaded/i.test(detail)) return make('overloaded', 'The server failed while streaming');
    return make('unknown', 'The server sent an error inside the stream');
  }
  const retryAfterMs = parseRetryAfter(err.headers);
  switch (true) {
    case status === 401 || status === 403:
      return make('auth', 'The API key was rejected');
    case status === 429:
      if ((code && QUOTA_CODES.has(code)) || type === 'insufficient_quota') {
        return make('quota', 'The account has no quota left');
      }
      return make('rate-limited', 'The server is rate limiting requests', { retryAfterMs });
    case status === 400 || status === 413:
      if ((code && CONTEXT_CODES.has(code)) || status === 413 || CONTEXT_MESSAGE.test(detail)) {
        return make('context', 'The conversation is longer than the model accepts');
      }
      return make('invalid', 'The server refused the request');
    case status === 404:
      return make('invalid', 'The model or endpoint was not found');
    case status === 408 || status === 504:
      return make('timeout', 'The server timed out', { retryAfterMs });
    case status === 409 || status === 502 || status === 503 || status === 529:
      return make('overloaded', 'The server is overloaded or unavailable', { retryAfterMs });
    case status >= 500:
      return make('unknown', 'The server failed', { retryAfterMs });
    default:
      return make('invalid', `The server refused the request with status ${status}`);
  }
}

function causeMessage(err: Error): string {
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
}

// A provider round, streaming or not: per-attempt timeout, error mapping and the bounded retry,
// written once for every provider so their failure behaviour cannot drift apart.
import type { ModelReply, StreamChunk } from '../provider';
import { ProviderError } from '../provider';
import { Attempt } from './attempt';
import { isRetryable, retryDelayMs, sleep, withRetry, type RetryPolicy } from './retry';

export interface RoundOptions {
  timeoutMs: number;
  policy: RetryPolicy;
  signal?: AbortSignal;
  /** Turns whatever the SDK threw into a ProviderError with the right kind. */
  mapError: (err: unknown) => ProviderError;
  random?: () => number;
}

/** One non-streaming round: `call` gets the attempt's signal and returns the finished reply. */
export function runRound<T>(call: (signal: AbortSignal) => Promise<T>, options: RoundOptions): Promise<T> {
  return withRetry(
    async () => {
      const attempt = new Attempt(options.timeoutMs, options.signal);
      try {
        return await call(attempt.signal);
      } catch (err) {
        throw attempt.classify(err, options.mapError);
      } finally {
        attempt.dispose();
      }
    },
    { policy: options.policy, signal: options.signal, random: options.random },
  );
}

/** Folds the chunks of one streamed attempt into deltas and, at the end, the reply. */
export interface StreamAccumulator<C> {
  /** Takes one chunk; returns the text it adds to the message, if any. */
  add(chunk: C): string | undefined;
  /** The whole reply; throws ProviderError for an empty or refused one. */
  finish(): ModelReply;
}

export interface StreamRoundOptions<C> extends RoundOptions {
  open: (signal: AbortSignal) => Promise<AsyncIterable<C>>;
  accumulator: () => StreamAccumulator<C>;
}

/**
 * One streamed round. An attempt that fails before any text was yielded is retried like a
 * plain call; once text reached the reader, retrying would repeat it, so the error is thrown.
 * The per-attempt timeout restarts on every chunk: it bounds silence, not length.
 */
export async function* runStreamRound<C>(options: StreamRoundOptions<C>): AsyncGenerator<StreamChunk> {
  const { policy, signal, random = Math.random } = options;
  for (let index = 0; ; index++) {
    const attempt = new Attempt(options.timeoutMs, signal);
    const accumulator = options.accumulator();
    let yielded = false;
    let failure: ProviderError;
    try {
      const chunks = await options.open(attempt.signal);
      for await (const chunk of chunks) {
        attempt.touch();
        const delta = accumulator.add(chunk);
        if (delta) {
          yielded = true;
          yield { delta };
          attempt.touch();
        }
      }
      // Some SDKs (openai's Stream) end the iteration quietly when the signal aborts: a stream
      // cut by our timer or the caller must not pass for a complete reply.
      if (attempt.signal.aborted) throw attempt.signal.reason ?? new Error('aborted');
      const reply = accumulator.finish();
      attempt.dispose();
      yield { done: true, reply };
      return;
    } catch (err) {
      failure = attempt.classify(err, options.mapError);
    } finally {
      attempt.cancel();
      attempt.dispose();
    }
    if (yielded || !isRetryable(failure) || index >= policy.maxRetries || signal?.aborted) throw failure;
    const delay = retryDelayMs(failure, index, policy, random);
    if (delay === null) throw failure;
    await sleep(delay, signal);
  }
}

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
    let iterator: AsyncIterator<C> | undefined;
    try {
      iterator = (await options.open(attempt.signal))[Symbol.asyncIterator]();
      const aborted = rejectOnAbort(attempt.signal);
      for (;;) {
        // Raced against the signal: an SDK stream aborted between two reads can leave its next
        // read pending forever.
        const pending = iterator.next();
        pending.catch(() => undefined); // a read left behind by an abort must not go unhandled
        const next = await Promise.race([pending, aborted]);
        if (next.done) break;
        const chunk = next.value;
        attempt.touch();
        const delta = accumulator.add(chunk);
        if (delta) {
          yielded = true;
          // The clock stops while the reader handles the delta: a slow reader is not a slow server.
          attempt.pause();
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
      // Not awaited: closing an aborted SDK stream may never settle.
      iterator?.return?.().catch(() => undefined);
    }
    if (yielded || !isRetryable(failure) || index >= policy.maxRetries || signal?.aborted) throw failure;
    const delay = retryDelayMs(failure, index, policy, random);
    if (delay === null) throw failure;
    await sleep(delay, signal);
  }
}

/** A promise that rejects with the signal's reason once it aborts; never unhandled. */
function rejectOnAbort(signal: AbortSignal): Promise<never> {
  const promise = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  promise.catch(() => undefined);
  return promise;
}

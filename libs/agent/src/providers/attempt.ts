// One attempt of a provider call: its own AbortController fed by a per-attempt timer and by
// the caller's signal, so that a timeout can be told apart from the caller giving up.
import { ProviderError } from '../provider';

export const DEFAULT_TIMEOUT_MS = 60_000;

export class Attempt {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expired = false;
  private readonly onCallerAbort = () => this.controller.abort(this.callerSignal?.reason);

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
  ) {
    if (callerSignal?.aborted) this.controller.abort(callerSignal.reason);
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Restarts the timer: a stream that keeps sending chunks is not hung. */
  touch(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.timeoutMs <= 0 || this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new Error(`timed out after ${this.timeoutMs} ms`));
    }, this.timeoutMs);
  }

  /** Stops the timer until the next `touch`. */
  pause(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Cuts the connection of an attempt whose reader went away (a stream closed early). */
  cancel(): void {
    if (!this.controller.signal.aborted) this.controller.abort(new Error('stream closed by the reader'));
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  /**
   * The error to throw for `err`: a timeout or a caller abort win over whatever the SDK
   * raised when the connection was cut, since they are the cause.
   */
  classify(err: unknown, mapError: (err: unknown) => ProviderError): ProviderError {
    if (this.expired) {
      return new ProviderError({ kind: 'timeout', message: `The provider did not answer within ${this.timeoutMs} ms.`, cause: err });
    }
    if (this.callerSignal?.aborted) return abortedByCaller(this.callerSignal, err);
    return err instanceof ProviderError ? err : mapError(err);
  }
}

/**
 * The caller's signal fired. There is no "aborted" kind in the contract; `timeout` is the one
 * whose outcome fits (the step is deferred, nothing is lost), and retries stop because the
 * signal is aborted.
 */
export function abortedByCaller(signal: AbortSignal, cause?: unknown): ProviderError {
  return new ProviderError({
    kind: 'timeout',
    message: 'The request was aborted by the caller.',
    cause: cause ?? signal.reason,
  });
}

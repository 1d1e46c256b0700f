// A code tool that never settles must not hold its turn (and the session's lease) forever: the
// call fails after its time limit, the model reads the error through the engine's "threw" gate,
// and the turn goes on. The handler's promise is left to settle on its own; its result is dropped.

/** When no decorator `timeoutMs` and no TOOL_TIMEOUT_MS is given (e.g. a registry built in a unit test). */
export const DEFAULT_TOOL_TIMEOUT_MS = 10_000;

export class ToolTimeoutError extends Error {
  readonly code = 'tool-timeout';
  constructor(
    readonly toolId: string,
    readonly timeoutMs: number,
  ) {
    // The message is what the model reads ({"error": message}); keep it plain.
    super(`Tool "${toolId}" timed out after ${timeoutMs} ms`);
    this.name = 'ToolTimeoutError';
  }
}

/** Runs `call`, failing with ToolTimeoutError if it has not settled within `timeoutMs`. */
export async function withToolTimeout<T>(toolId: string, timeoutMs: number, call: () => T | Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ToolTimeoutError(toolId, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(call), expired]);
  } finally {
    clearTimeout(timer);
  }
}

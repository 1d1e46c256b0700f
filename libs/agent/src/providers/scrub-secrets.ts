// What a model server says about a failure reaches the turn's trace, its outcome, the logs and
// the console. Gateways and proxies often echo the request back, key included, so every
// provider error passes through here first: the credential in use is cut out, and so is
// anything shaped like an API key or a bearer token, whoever's it is.
import { ProviderError } from '../provider';

export const REDACTED = '[redacted]';

/** Known secrets shorter than this are not cut: they would mangle ordinary words ("none"). */
const MIN_SECRET_LENGTH = 8;

// Shapes of credentials, whatever key is in use. Each keeps its prefix so a reader can still
// tell which kind of credential was echoed.
const SHAPES: [RegExp, string][] = [
  // Authorization schemes: "Bearer abc…", "Basic dXNl…", "Token abc…". The credential has a
  // digit somewhere, which keeps prose ("token count", "basic question") as it is.
  [/\b(Bearer|Basic|Token)(\s+)(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi, `$1$2${REDACTED}`],
  // OpenAI (sk-…, sk-proj-…), Anthropic (sk-ant-…) and most gateways (sk-…).
  [/\bsk-[A-Za-z0-9_-]{6,}/g, `sk-${REDACTED}`],
  // Google API keys: AIza + 35 characters.
  [/\bAIza[0-9A-Za-z_-]{20,}/g, `AIza${REDACTED}`],
  // Header or query parameter that names a key: x-goog-api-key: …, api-key=…, "apiKey": "…", ?key=…
  [/((?:x-goog-api-key|x-api-key|api[_-]?key|access[_-]?token|[?&]key)["']?\s*[:=]\s*["']?)[^\s"'&,;}]{4,}/gi, `$1${REDACTED}`],
  // JSON Web Tokens.
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, REDACTED],
];

/** `text` with every known secret and every credential-shaped token replaced by `[redacted]`. */
export function scrubSecretText(text: string, secrets: readonly (string | undefined)[] = []): string {
  const known = [...new Set(secrets.map((s) => s?.trim() ?? '').filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  let out = known.reduce((acc, secret) => acc.split(secret).join(REDACTED), text);
  for (const [shape, replacement] of SHAPES) out = out.replace(shape, replacement);
  return out;
}

/**
 * The same error with its message scrubbed and its cause (the SDK's error, which holds the
 * raw response body and headers) replaced by a plain error carrying only a scrubbed message.
 * Anything else a provider lets through (a bug, not a provider failure) keeps its class and
 * loses its cause the same way.
 */
export function scrubProviderError(err: unknown, secrets: readonly (string | undefined)[] = []): unknown {
  const scrub = (text: string) => scrubSecretText(text, secrets);
  if (!(err instanceof ProviderError)) {
    if (!(err instanceof Error)) return new Error(scrub(String(err)));
    err.message = scrub(err.message);
    err.stack = `${err.name}: ${err.message}`;
    if ((err as { cause?: unknown }).cause !== undefined) (err as { cause?: unknown }).cause = plainError((err as { cause?: unknown }).cause, scrub);
    return err;
  }
  const cause = (err as { cause?: unknown }).cause;
  return new ProviderError({
    kind: err.kind,
    message: scrub(err.message),
    status: err.status,
    retryAfterMs: err.retryAfterMs,
    resetAt: err.resetAt,
    cause: cause === undefined ? undefined : plainError(cause, scrub),
  });
}

/** A stream whose failure, at any point, is scrubbed like scrubProviderError. */
export async function* scrubStreamErrors<T>(stream: AsyncIterable<T>, secrets: readonly (string | undefined)[]): AsyncGenerator<T> {
  try {
    yield* stream;
  } catch (err) {
    throw scrubProviderError(err, secrets);
  }
}

function plainError(cause: unknown, scrub: (text: string) => string): Error {
  const plain = new Error(scrub(errorText(cause)));
  plain.name = cause instanceof Error ? cause.name : 'Error';
  plain.stack = `${plain.name}: ${plain.message}`; // the SDK's stack frames are of no use to a reader and the message is repeated there
  return plain;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

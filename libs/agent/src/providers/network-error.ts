// Recognises a transport failure (refused, reset, cut mid-body, DNS) in what fetch/undici throw.
// Checked by name and code, not `instanceof`: the error may come from another realm (jest's
// sandbox uses Node's own fetch).

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const NETWORK_MESSAGE = /fetch failed|terminated|other side closed|socket hang up|network|Incomplete JSON segment/i;

export function isNetworkFailure(err: unknown): boolean {
  for (let current: unknown = err, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (typeof message === 'string' && NETWORK_MESSAGE.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The error a host's transport (ProviderFactoryConfig.fetch) refused the request with, found in
 * the cause chain by its `refusedByPolicy` mark: an address its outbound rules forbid. Waiting
 * does not change a rule, so the provider reports it as `invalid`, not as a network failure.
 */
export function policyRefusal(err: unknown): Error | undefined {
  for (let current: unknown = err, depth = 0; typeof current === 'object' && current !== null && depth < 5; depth++) {
    if ((current as { refusedByPolicy?: unknown }).refusedByPolicy === true) return current as Error;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

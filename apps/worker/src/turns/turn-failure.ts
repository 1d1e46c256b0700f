import { isProviderError, type ProviderErrorKind } from '@falai/agent';
import { PROVIDER_RETRY_LADDER_MS } from '../config/worker-settings';

// Failures of a whole turn (not of one step) and whether waiting could fix them.

const PERMANENT_PROVIDER_KINDS: Partial<Record<ProviderErrorKind, string>> = {
  auth: 'provider-auth',
  context: 'provider-context',
  invalid: 'provider-invalid',
};

/** Errors that mean the agent cannot be built as configured; retrying the job changes nothing. */
const CONFIG_ERROR_NAMES = new Set([
  'InvalidAgentConfigError',
  'UnknownAgentToolError',
  'AgentNotFoundError',
  'FlowConfigurationError',
  'ProviderConfigurationError',
  'ProviderCredentialError',
  'ProviderEndpointError',
  'ScriptError',
  'HttpToolDefinitionError',
]);
/** The same, for errors recognised by their stable code (their class may not set a name). */
const CONFIG_ERROR_CODES = new Set(['secret-undecryptable', 'invalid-master-key']);

/**
 * The outcome code of a failure no retry can fix, or undefined for one worth retrying (a
 * transient provider failure of the understand call, a database hiccup, a bug).
 */
export function permanentFailureCode(err: unknown): string | undefined {
  if (isProviderError(err)) {
    if (err.kind === 'quota') return err.resetAt ? undefined : 'provider-quota';
    return PERMANENT_PROVIDER_KINDS[err.kind];
  }
  if (err instanceof Error && (CONFIG_ERROR_NAMES.has(err.name) || CONFIG_ERROR_CODES.has(String((err as { code?: unknown }).code)))) {
    return 'agent-unavailable';
  }
  return undefined;
}

/**
 * How long to wait before retrying a turn whose understand call failed for now (overloaded,
 * rate-limited, timeout, network, quota with a stated reset); undefined for any other error.
 */
export function transientRetryDelayMs(err: unknown, retriesSoFar: number, now = Date.now()): number | undefined {
  if (!isProviderError(err) || permanentFailureCode(err) !== undefined) return undefined;
  const rung = PROVIDER_RETRY_LADDER_MS[Math.min(retriesSoFar, PROVIDER_RETRY_LADDER_MS.length - 1)];
  const untilReset = err.resetAt ? err.resetAt.getTime() - now : 0;
  return Math.max(rung, err.retryAfterMs ?? 0, untilReset);
}

// Where an agent's model calls go and whose key they carry, decided once for the API's publish
// and the worker's provider build, so the two can never disagree (docs/security.md, "Platform
// model keys"). Two rules:
//  - The platform's OPENAI_API_KEY / GEMINI_API_KEY only ever go to the provider's official
//    endpoint. A custom baseURL needs the tenant's own credential; openai-compatible servers
//    never get a platform key (they get none when the agent names no credential).
//  - A custom baseURL is a tenant-chosen URL like an HTTP tool's: it passes the outbound guard
//    (no loopback, private, link-local or metadata address unless OUTBOUND_ALLOWED_HOSTS lists
//    its host). Here for names as they resolve now; at call time the guarded fetch checks the
//    address each connection goes to.
import { assertAllowedHost, ForbiddenAddressError, hasUrlCredentials, type Resolve } from '@switchboard/outbound';
import type { AgentProviderConfig, ProviderKind } from './agent-config';

/** The official API roots the platform's own keys may be sent to. */
export const OFFICIAL_PROVIDER_ORIGINS: Readonly<Record<'openai' | 'gemini', string>> = {
  openai: 'https://api.openai.com',
  gemini: 'https://generativelanguage.googleapis.com',
};

/** A stored provider credential as far as this check needs it (ProviderCredential row). */
export interface ProviderCredentialInfo {
  kind: 'openai' | 'gemini' | 'openai_compatible';
  baseURL: string | null;
}

/** Provider kinds as a person names them, for error messages. */
const PROVIDER_LABEL: Readonly<Record<Exclude<ProviderKind, 'scripted'>, string>> = {
  openai: 'OpenAI',
  gemini: 'Gemini',
  'openai-compatible': 'OpenAI-compatible',
};

/** What a stored credential holds, as a sentence says it. */
const KIND_LABEL: Readonly<Record<ProviderCredentialInfo['kind'], string>> = {
  openai: 'an OpenAI',
  gemini: 'a Gemini',
  openai_compatible: 'an OpenAI-compatible server',
};

/** The stored kind of a credential (Prisma enum) for each provider kind of a config. */
export const CREDENTIAL_KIND_OF: Readonly<Record<Exclude<ProviderKind, 'scripted'>, ProviderCredentialInfo['kind']>> = {
  openai: 'openai',
  gemini: 'gemini',
  'openai-compatible': 'openai_compatible',
};

export interface ProviderEndpoint {
  /** Where the SDK sends requests; undefined: the provider's official endpoint. */
  baseURL?: string;
  /** Whose key goes with them: the tenant's credential, the platform's env key, or none at all. */
  key: 'tenant' | 'platform' | 'none';
}

export interface ProviderEndpointCheckOptions {
  /** The credential `provider.credentialId` names, already found among the tenant's; null when it names none. */
  credential: ProviderCredentialInfo | null;
  /** OUTBOUND_ALLOWED_HOSTS. */
  allowedHosts: ReadonlySet<string>;
  /** Resolve a host name now and refuse it when it has a forbidden address (publish); off at call time, where the connection checks. */
  resolveNames?: boolean;
  /** How host names are resolved; the system resolver unless a test stands in for DNS. */
  resolve?: Resolve;
}

export type ProviderEndpointErrorCode =
  | 'provider-base-url-needs-credential'
  | 'provider-base-url-invalid'
  | 'provider-address-forbidden'
  | 'provider-credential-kind';

/** A provider config refused by checkProviderEndpoint; `path` is the offending value's path inside the agent config. */
export class ProviderEndpointError extends Error {
  constructor(
    readonly code: ProviderEndpointErrorCode,
    message: string,
    readonly path: string[],
  ) {
    super(message);
    this.name = 'ProviderEndpointError';
  }
}

/**
 * Decides the endpoint and key of `provider`, or throws ProviderEndpointError saying what to
 * change. Call it wherever an agent config is accepted for running (publish) or built for a
 * turn (the worker), with the credential the config names.
 */
export async function checkProviderEndpoint(provider: AgentProviderConfig, options: ProviderEndpointCheckOptions): Promise<ProviderEndpoint> {
  if (provider.kind === 'scripted') return { key: 'none' };
  const { credential } = options;
  if (credential && credential.kind !== CREDENTIAL_KIND_OF[provider.kind]) {
    throw new ProviderEndpointError(
      'provider-credential-kind',
      `The provider credential you picked holds ${KIND_LABEL[credential.kind]} key, but this agent's provider is ${PROVIDER_LABEL[provider.kind]}. ` +
        `Pick one of the tenant's ${PROVIDER_LABEL[provider.kind]} credentials, or switch the provider.`,
      ['provider', 'credentialId'],
    );
  }
  const fromConfig = provider.baseURL !== undefined;
  const baseURL = provider.baseURL ?? credential?.baseURL ?? undefined;
  const at = fromConfig ? ['provider', 'baseURL'] : ['provider', 'credentialId'];
  if (baseURL === undefined) {
    if (provider.kind === 'openai-compatible') {
      throw new ProviderEndpointError('provider-base-url-invalid', 'An OpenAI-compatible provider needs the address of its server: enter a base URL here or in the provider credential.', ['provider', 'baseURL']);
    }
    return { key: credential ? 'tenant' : 'platform' };
  }

  const url = parseBaseUrl(baseURL, at);
  if (provider.kind !== 'openai-compatible' && !credential && url.origin !== OFFICIAL_PROVIDER_ORIGINS[provider.kind]) {
    throw new ProviderEndpointError(
      'provider-base-url-needs-credential',
      `The base URL points this ${PROVIDER_LABEL[provider.kind]} agent at ${url.origin}, which is not ${OFFICIAL_PROVIDER_ORIGINS[provider.kind]}; ` +
        "the platform's own key is only sent to the official endpoint. Pick a provider credential of your own, or remove the base URL.",
      at,
    );
  }
  if (url.origin !== OFFICIAL_PROVIDER_ORIGINS[provider.kind as 'openai' | 'gemini']) {
    try {
      await assertAllowedHost(url.hostname, options.allowedHosts, { resolve: options.resolveNames === false ? noResolve : options.resolve, caller: 'model providers' });
    } catch (err) {
      if (!(err instanceof ForbiddenAddressError)) throw err;
      throw new ProviderEndpointError('provider-address-forbidden', `The provider base URL ${url.origin} cannot be used: ${err.message}`, at);
    }
  }
  return { baseURL, key: credential ? 'tenant' : provider.kind === 'openai-compatible' ? 'none' : 'platform' };
}

/** At call time names are checked by the connection itself (guardedFetch), not ahead of it. */
const noResolve: Resolve = (_host, cb) => cb(null, []);

function parseBaseUrl(text: string, at: string[]): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProviderEndpointError('provider-base-url-invalid', `The provider base URL ${JSON.stringify(text)} is not a URL.`, at);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ProviderEndpointError('provider-base-url-invalid', `The provider base URL must be http or https, not ${url.protocol}.`, at);
  }
  if (hasUrlCredentials(text)) {
    throw new ProviderEndpointError('provider-base-url-invalid', 'The provider base URL carries a user name or password; put the key in a provider credential instead.', at);
  }
  return url;
}

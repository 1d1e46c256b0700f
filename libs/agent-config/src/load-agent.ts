import {
  createProvider,
  FlowConfigurationError,
  ProviderConfigurationError,
  ScriptError,
  type Agent,
  type AiProvider,
  type AnyAction,
  type AnyCondition,
  type AnyTool,
  type ProviderFactoryConfig,
  type Store,
} from '@falai/agent';
import type { AgentConfig, AgentProviderConfig } from './agent-config';
import { agentConfigSchema } from './agent-config.schema';
import { buildEngineAgent, UnknownAgentToolError } from './build-engine-agent';
import { withFallbackMessage } from './fallback-message';
import { checkProviderEndpoint } from './provider-endpoint';

// The one loader of an agent from its stored config (issue #17): the worker builds every turn's
// agent with it, and publish runs it on the draft before writing a version, so whatever the
// worker would refuse, publish refuses first, at the same JSON path. The host supplies what
// differs between processes (where credentials and tools come from) through AgentLoadPorts;
// every check is here, once.

/** A JSON path into the agent config: `["provider", "scripted", "rules", 0, "match"]`. */
export type ConfigPath = (string | number)[];

/** Why a config cannot be loaded; each names a different fix. */
export type AgentLoadFailure =
  | 'invalid-config'
  | 'invalid-script'
  | 'provider-configuration'
  | 'credential-missing'
  | 'credential-undecryptable'
  | 'unknown-tool'
  | 'tool-definition'
  | 'flow-configuration';

/**
 * The config cannot become an agent. `message` is a sentence for the person who wrote the config
 * (what is wrong and what to do); `path` locates the value; `detail` is the underlying error's own
 * text and `cause` the error itself, for logs and the API's `details`.
 */
export class AgentLoadError extends Error {
  readonly detail: string;
  constructor(
    readonly code: AgentLoadFailure,
    readonly path: ConfigPath,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'AgentLoadError';
    this.detail = cause instanceof Error ? cause.message : message;
  }
}

/** A stored provider credential as the loader needs it (Prisma's ProviderCredential columns). */
export interface StoredCredential {
  kind: 'openai' | 'gemini' | 'openai_compatible';
  baseURL: string | null;
  secretEncrypted: string;
}

/** What the host process provides; both the worker and the API implement it over the same tables. */
export interface AgentLoadPorts {
  /** The tenant's credential of that id, or null when the tenant has none by that id. */
  credential(id: string): Promise<StoredCredential | null>;
  /** Opens a credential's stored secret; throws when it cannot (wrong MASTER_KEY, tampered). */
  decrypt(secretEncrypted: string): string;
  /** The platform's own keys, used by `openai` and `gemini` agents that name no credential (official endpoint only). */
  platformKeys: { openai?: string; gemini?: string };
  /**
   * How provider endpoints are checked (OUTBOUND_ALLOWED_HOSTS; resolve names now — publish — or
   * leave it to the guarded transport at call time — the worker) and the transport of the calls.
   */
  endpoint: { allowedHosts: ReadonlySet<string>; resolveNames?: boolean; fetch?: ProviderFactoryConfig['fetch'] };
  /** The host's tools among `ids` (code tools first, then the tenant's HTTP tools); ids it lacks are left out. */
  tools(ids: readonly string[]): Promise<AnyTool[]>;
  actions: readonly AnyAction[];
  conditions: readonly AnyCondition[];
  /** Used when the config has no name. */
  name?: string;
  store?: Store;
}

export interface LoadedAgentConfig<C> {
  config: AgentConfig;
  agent: Agent<C>;
  provider: AiProvider;
}


/** Checks and builds an agent from stored config JSON. Throws AgentLoadError, nothing else for a bad config. */
export async function loadAgentConfig<C = unknown>(json: unknown, ports: AgentLoadPorts): Promise<LoadedAgentConfig<C>> {
  // Agents stored before every agent had a fallback message get the default of their language.
  const config = withFallbackMessage(parseConfig(json));
  const provider = await buildProvider(config.provider, ports);
  const tools = await loadTools(config, ports);
  try {
    const agent = buildEngineAgent<C>(config, {
      tools,
      actions: ports.actions,
      conditions: ports.conditions,
      provider,
      ...(ports.name !== undefined && { name: ports.name }),
      ...(ports.store && { store: ports.store }),
    });
    return { config, agent, provider };
  } catch (err) {
    if (err instanceof FlowConfigurationError) throw await flowRefusal(err, config, ports);
    if (err instanceof UnknownAgentToolError) throw unknownTool(config, err.toolIds[0], err);
    throw err;
  }
}

/**
 * The engine's refusal of a flow, as a sentence without its class name: where (flow, step), what,
 * and the fix. A step naming a tool that exists but is not on the agent's allow-list says so.
 */
async function flowRefusal(err: FlowConfigurationError, config: AgentConfig, ports: AgentLoadPorts): Promise<AgentLoadError> {
  const path = [...err.path];
  const text = err.message.replace(/^\[FlowConfigurationError\]\s*/, '');
  if (err.code === 'unknown-tool' && path.includes('tools')) {
    const id = valueAt(config, path);
    if (typeof id === 'string' && !config.tools.includes(id) && (await ports.tools([id])).some((t) => t.id === id)) {
      return new AgentLoadError(
        'flow-configuration',
        path,
        `${capitalise(err.where)} uses the tool “${id}”, which exists but is not one of this agent’s tools. Add “${id}” to the agent’s tools, or remove it from the step.`,
        err,
      );
    }
  }
  return new AgentLoadError('flow-configuration', path, capitalise(text), err);
}

function valueAt(root: unknown, path: ConfigPath): unknown {
  let at: unknown = root;
  for (const key of path) at = at && typeof at === 'object' ? (at as Record<string | number, unknown>)[key] : undefined;
  return at;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function parseConfig(json: unknown): AgentConfig {
  const parsed = agentConfigSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  const where = path.length ? `The value at ${path.join('.')}` : 'The agent config';
  throw new AgentLoadError('invalid-config', path, `${where} is not valid: ${issue.message}. Correct it and save again.`, parsed.error);
}

/**
 * The model provider a config names. The key comes from the tenant's credential when the config
 * names one (it must exist, be of the provider's kind and decrypt); otherwise, for `openai` and
 * `gemini`, from the platform's key. An openai-compatible server belongs to a tenant, so it never
 * gets the platform's key. `scripted` compiles its rules here (a bad regex is refused now, not mid-turn).
 */
export async function buildProvider(
  config: AgentProviderConfig,
  ports: Pick<AgentLoadPorts, 'credential' | 'decrypt' | 'platformKeys' | 'endpoint'>,
): Promise<AiProvider> {
  if (config.kind === 'scripted') {
    try {
      return createProvider({ provider: 'scripted', model: config.model, scripted: config.scripted });
    } catch (err) {
      // The factory wraps the ScriptedProvider's own ScriptError, which names the rule's path.
      const script = err instanceof ScriptError ? err : (err as { cause?: unknown }).cause;
      if (script instanceof ScriptError) {
        throw new AgentLoadError('invalid-script', ['provider', 'scripted', ...scriptPath(script.path)], scriptSentence(script), script);
      }
      throw providerConfiguration(err);
    }
  }
  const at = ['provider', 'credentialId'];
  const credential = config.credentialId ? await ports.credential(config.credentialId) : null;
  if (config.credentialId && !credential) {
    throw new AgentLoadError('credential-missing', at, 'The provider key this agent uses no longer exists. Pick one of your provider keys, or add a new one.');
  }
  // Where the calls go and whose key they carry: the one rule (provider-endpoint.ts). Its
  // ProviderEndpointError (a credential of another kind, a base URL the platform key must not
  // reach, a forbidden address) goes out as it is, with its own code and path.
  const endpoint = await checkProviderEndpoint(config, {
    credential,
    allowedHosts: ports.endpoint.allowedHosts,
    ...(ports.endpoint.resolveNames !== undefined && { resolveNames: ports.endpoint.resolveNames }),
  });
  let apiKey: string | undefined;
  if (endpoint.key === 'tenant') {
    try {
      apiKey = ports.decrypt(credential!.secretEncrypted);
    } catch (err) {
      throw new AgentLoadError(
        'credential-undecryptable',
        at,
        'The provider key this agent uses cannot be read with the platform’s current master key. Enter the key again under provider keys.',
        err,
      );
    }
  } else if (endpoint.key === 'platform') {
    apiKey = config.kind === 'gemini' ? ports.platformKeys.gemini : ports.platformKeys.openai;
  }
  try {
    return createProvider({
      provider: config.kind,
      model: config.model,
      ...(ports.endpoint.fetch && { fetch: ports.endpoint.fetch }),
      ...(endpoint.baseURL !== undefined && { baseURL: endpoint.baseURL }),
      ...(apiKey !== undefined && { credentials: { apiKey } }),
    });
  } catch (err) {
    throw providerConfiguration(err);
  }
}

/** Where each of the provider factory's refusals is fixed, and what to say. */
const PROVIDER_REFUSALS: Record<string, { path: ConfigPath; say: string }> = {
  'provider-key-missing': { path: ['provider', 'credentialId'], say: 'This model provider needs an API key, and the platform has none for it. Pick one of your provider keys.' },
  'provider-model-missing': { path: ['provider', 'model'], say: 'Choose the model the agent should use.' },
  'provider-base-url-missing': { path: ['provider', 'baseURL'], say: 'An OpenAI-compatible provider needs the address of its server, e.g. http://127.0.0.1:11434/v1.' },
};

function providerConfiguration(err: unknown): AgentLoadError {
  if (!(err instanceof ProviderConfigurationError)) throw err;
  const known = PROVIDER_REFUSALS[err.code];
  if (known) return new AgentLoadError('provider-configuration', known.path, known.say, err);
  const why = err.message.replace(/^\[\w+\]\s*/, '');
  return new AgentLoadError('provider-configuration', ['provider'], `The model provider cannot be set up as configured: ${why}`, err);
}

/** Every allow-listed tool must be one the host has; the first missing one is named at its index. */
async function loadTools(config: AgentConfig, ports: AgentLoadPorts): Promise<AnyTool[]> {
  let tools: AnyTool[];
  try {
    tools = await ports.tools(config.tools);
  } catch (err) {
    if (err instanceof AgentLoadError) throw err;
    const id = (err as { toolId?: string }).toolId;
    const index = id !== undefined ? config.tools.indexOf(id) : -1;
    if ((err as { code?: unknown }).code === 'http-tool-definition-invalid') {
      throw new AgentLoadError('tool-definition', index >= 0 ? ['tools', index] : ['tools'], `An HTTP tool of this agent has a definition that cannot be used: ${(err as Error).message}`, err);
    }
    throw err;
  }
  const have = new Set(tools.map((t) => t.id));
  const missing = config.tools.find((id) => !have.has(id));
  if (missing !== undefined) throw unknownTool(config, missing);
  return tools;
}

function unknownTool(config: AgentConfig, id: string, cause?: unknown): AgentLoadError {
  return new AgentLoadError(
    'unknown-tool',
    ['tools', config.tools.indexOf(id)],
    `The tool “${id}” does not exist: no worker has registered it and you have no HTTP tool by that name. Remove it from the agent’s tools, or create the HTTP tool first.`,
    cause,
  );
}

/** `script.rules[3].match` → `["rules", 3, "match"]` (the ScriptError's path, under provider.scripted). */
function scriptPath(path: string): ConfigPath {
  const out: ConfigPath = [];
  for (const part of path.replace(/^script\.?/, '').split('.')) {
    if (!part) continue;
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

function scriptSentence(err: ScriptError): string {
  const what = err.message.replace(/^\[ScriptError\]\s*[^:]+:\s*/, '').replace(/\.$/, '');
  const rule = /rules\[(\d+)\]/.exec(err.path);
  const where = rule ? `Rule ${Number(rule[1]) + 1} of the scripted model` : 'The scripted model';
  if (/\.match$/.test(err.path) && /regex/.test(what)) {
    return `${where} has a pattern that is not a valid JavaScript regular expression (${what.replace(/^is not a valid regex \((.*)\)$/, '$1')}). Inline flags such as (?i) are not supported: matching ignores case already.`;
  }
  return `${where}: the value at ${err.path.replace(/^script\./, '')} ${what}. Correct it and save again.`;
}

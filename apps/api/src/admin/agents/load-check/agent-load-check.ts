import { Inject, Injectable } from '@nestjs/common';
import type { AnyAction, AnyCondition, AnyTool, StructuredSchema } from '@falai/agent';
import type { Env } from '@switchboard/config';
import { AgentLoadError, loadAgentConfig, ProviderEndpointError, type AgentLoadPorts, type LoadedAgentConfig } from '@switchboard/agent-config';
import type { Prisma } from '@switchboard/db';
import { ENV } from '../../../config/env.module';
import { UnprocessableError } from '../../../common/errors';
import { SECRET_CONTEXTS, SecretBox } from '../../common/secret-box';
import { isUuid } from '../../list-query/filters';

/**
 * 422 for a config the worker could not load: the loader's sentence as the message; its code,
 * the JSON path of the input (under `basePath`, where the config sits in the request) and the
 * underlying error's own text in `details`.
 */
export class AgentNotLoadableError extends UnprocessableError {
  constructor(err: AgentLoadError, basePath: (string | number)[] = []) {
    const cause = err.cause as { name?: string; code?: unknown; pointer?: unknown; where?: unknown } | undefined;
    const path = [...basePath, ...err.path];
    // A flow the engine refuses keeps the code clients knew (`flow-configuration`), with the engine's details.
    const flow = err.code === 'flow-configuration';
    super(flow ? 'flow-configuration' : 'agent-not-loadable', err.message, {
      reason: err.code,
      path,
      pointer: toPointer(path),
      ...(flow && typeof cause?.where === 'string' && { where: cause.where }),
      ...(flow && typeof cause?.code === 'string' && { engineCode: cause.code }),
      ...(err.detail !== err.message && { detail: err.detail }),
      ...(cause?.name && { error: cause.name }),
      ...(typeof cause?.code === 'string' && { errorCode: cause.code }),
    });
  }
}

/** The JSON Pointer of a path: `/flows/0/steps/1/tools/0`. */
function toPointer(path: (string | number)[]): string {
  return path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** What a tool, action or condition does when the check runs it: never, the check only builds the agent. */
function notHere(what: string): never {
  throw new Error(`${what} runs in the worker, not while an agent is checked for publishing`);
}

/**
 * Runs the worker's loader (libs/agent-config load-agent.ts) on a config, in the API: the same
 * parse, provider build (credential exists, is of the provider's kind and decrypts; scripted
 * rules compiled), allow-list and engine build with flows. Only where things come from differs:
 * the worker's code tools, actions and conditions are the rows it registered at start-up
 * (RegisteredTool, RegisteredAction), stood in by objects that carry their id and schema.
 */
@Injectable()
export class AgentLoadCheck {
  constructor(
    @Inject(ENV) private readonly env: Env,
    private readonly secrets: SecretBox,
  ) {}

  /** Throws AgentNotLoadableError (422) when the worker would refuse this config. */
  async assertLoadable(tx: Prisma.TransactionClient, tenantId: string, config: unknown, basePath: (string | number)[] = []): Promise<LoadedAgentConfig<unknown>> {
    try {
      return await loadAgentConfig(config, await this.ports(tx, tenantId));
    } catch (err) {
      if (err instanceof AgentLoadError) throw new AgentNotLoadableError(err, basePath);
      // checkProviderEndpoint's refusal keeps its own code (docs/security.md, "Platform model keys").
      if (err instanceof ProviderEndpointError) throw new UnprocessableError(err.code, err.message, { path: [...basePath, ...err.path] });
      throw err;
    }
  }

  private async ports(tx: Prisma.TransactionClient, tenantId: string): Promise<AgentLoadPorts> {
    const [codeTools, httpTools, registered] = await Promise.all([
      tx.registeredTool.findMany({ select: { toolId: true, description: true, parameters: true } }),
      tx.toolDefinition.findMany({ where: { tenantId }, select: { toolId: true, description: true, parameters: true } }),
      tx.registeredAction.findMany({ select: { kind: true, name: true, params: true } }),
    ]);
    const byId = new Map<string, AnyTool>();
    // Code tools first, as in the worker: an HTTP tool of the same id is shadowed.
    for (const t of [...codeTools, ...httpTools]) {
      if (byId.has(t.toolId)) continue;
      byId.set(t.toolId, {
        id: t.toolId,
        ...(t.description && { description: t.description }),
        ...(t.parameters && { parameters: t.parameters as unknown as StructuredSchema }),
        handler: () => notHere(`tool ${t.toolId}`),
      });
    }
    const actions: AnyAction[] = [];
    const conditions: AnyCondition[] = [];
    for (const r of registered) {
      if (r.kind === 'action') {
        actions.push({ name: r.name, ...(r.params && { params: r.params as unknown as StructuredSchema }), handler: () => notHere(`action ${r.name}`) });
      } else {
        conditions.push({ name: r.name, test: () => notHere(`condition ${r.name}`) });
      }
    }
    return {
      credential: async (id) =>
        isUuid(id) ? tx.providerCredential.findFirst({ where: { id, tenantId }, select: { kind: true, baseURL: true, secretEncrypted: true } }) : null,
      decrypt: (stored) => this.secrets.decrypt(stored, SECRET_CONTEXTS.providerCredential(tenantId)),
      platformKeys: { openai: this.env.OPENAI_API_KEY, gemini: this.env.GEMINI_API_KEY },
      // Publish resolves a base URL's host now; the API never calls the provider.
      endpoint: { allowedHosts: new Set(this.env.OUTBOUND_ALLOWED_HOSTS) },
      tools: async (ids) => [...new Set(ids)].flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
      actions,
      conditions,
    };
  }
}

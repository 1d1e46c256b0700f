import { Injectable, Logger } from '@nestjs/common';
import type { Agent } from '@falai/agent';
import { fallbackMessageOf, loadAgentConfig, type AgentConfig } from '@switchboard/agent-config';
import { PrismaService } from '@switchboard/db';
import { AGENT_CACHE_SIZE, AGENT_CACHE_TTL_MS } from '../config/worker-settings';
import type { TurnContext } from '../tools/agent-tool.decorator';
import { HttpTools } from '../http-tools/http-tools';
import { ToolRegistry } from '../tools/tool-registry';
import { ActionRegistry } from '../actions/action-registry';
import { ConditionRegistry } from '../conditions/condition-registry';
import { hostStore } from './host-store';
import { ProviderForConfig } from './provider-for-config';

export interface LoadedAgent {
  agentId: string;
  /** The published version the turn runs, or null for the draft. */
  version: number | null;
  config: AgentConfig;
  agent: Agent<TurnContext>;
  provider: { name: string; model: string };
}

/** What names the version a turn of the agent runs now: its cache key, read with the turn's state. */
export interface AgentStamp {
  publishedVersion: number | null;
  updatedAt: Date;
  archivedAt: Date | null;
}

export class AgentNotFoundError extends Error {
  readonly code = 'agent-not-found';
  constructor(agentId: string, detail: string) {
    super(`[AgentNotFoundError] agent ${agentId}: ${detail}.`);
    this.name = 'AgentNotFoundError';
  }
}

/**
 * The agent a session talks to, built from its published version (else its draft) and cached by
 * (agent, version) — or (agent, draft updatedAt) — so a publish or a draft edit takes effect on
 * the next turn while unchanged agents are built once per process. Entries also expire after
 * AGENT_CACHE_TTL_MS, so a rotated provider key or an edited HTTP tool is picked up.
 */
@Injectable()
export class AgentCatalog {
  private readonly logger = new Logger(AgentCatalog.name);
  private readonly cache = new Map<string, { loading: Promise<LoadedAgent>; until: number }>();

  constructor(
    private readonly prisma: PrismaService,
    private readonly tools: ToolRegistry,
    private readonly providers: ProviderForConfig,
    private readonly httpTools: HttpTools,
    private readonly actions: ActionRegistry,
    private readonly conditions: ConditionRegistry,
  ) {}

  /**
   * `stamp`: the agent's version stamp when the caller read it already (with the turn's state;
   * null = no such agent), so a cached agent costs no query; else it is read here.
   */
  async forAgent(tenantId: string, agentId: string, stamp?: AgentStamp | null): Promise<LoadedAgent> {
    // The cheap check on every call (no config JSON): which version would a turn run now?
    const current =
      stamp !== undefined
        ? stamp
        : await this.prisma.agent.findFirst({ where: { id: agentId, tenantId }, select: { publishedVersion: true, updatedAt: true, archivedAt: true } });
    if (!current) throw new AgentNotFoundError(agentId, 'no such agent for this tenant');
    // An archived agent is not run, as a deleted one (no channel can point at it; old sessions may).
    if (current.archivedAt) throw new AgentNotFoundError(agentId, 'the agent is archived');
    const cacheKey =
      current.publishedVersion !== null ? `${agentId}@v${current.publishedVersion}` : `${agentId}@draft:${current.updatedAt.getTime()}`;

    const hit = this.cache.get(cacheKey);
    if (hit && hit.until > Date.now()) {
      // Re-insert: Map order is the LRU order.
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, hit);
      return hit.loading;
    }
    const loading = this.load(tenantId, agentId, current.publishedVersion).catch((err: unknown) => {
      this.cache.delete(cacheKey);
      throw err;
    });
    this.cache.delete(cacheKey);
    this.cache.set(cacheKey, { loading, until: Date.now() + AGENT_CACHE_TTL_MS });
    while (this.cache.size > AGENT_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return loading;
  }

  /**
   * The fallback message of the version a turn would run, for a turn whose agent could not be
   * loaded: read leniently from the stored JSON (its own text, else the default in the language
   * its texts show), so even a config the loader refuses still tells the customer something.
   */
  async fallbackMessage(tenantId: string, agentId: string): Promise<string> {
    const row = await this.prisma.agent.findFirst({ where: { id: agentId, tenantId }, select: { config: true, publishedVersion: true } });
    let json: unknown = row?.config;
    if (row?.publishedVersion != null) {
      json = (await this.prisma.agentVersion.findFirst({ where: { agentId, tenantId, version: row.publishedVersion }, select: { config: true } }))?.config ?? json;
    }
    return fallbackMessageOf(json);
  }

  /** Builds the agent at `version` (the one its cache key names), or its draft when null. */
  private async load(tenantId: string, agentId: string, version: number | null): Promise<LoadedAgent> {
    const row = await this.prisma.agent.findFirst({ where: { id: agentId, tenantId }, select: { id: true, name: true, config: true } });
    if (!row) throw new AgentNotFoundError(agentId, 'no such agent for this tenant');
    let json = row.config;
    if (version !== null) {
      const published = await this.prisma.agentVersion.findFirst({
        where: { agentId, tenantId, version },
        select: { config: true },
      });
      if (!published) throw new AgentNotFoundError(agentId, `published version ${version} is missing`);
      json = published.config;
    }
    // The loader publish runs too (libs/agent-config load-agent.ts): what it refuses here was refused there.
    const { config, agent, provider } = await loadAgentConfig<TurnContext>(json, {
      ...this.providers.ports(tenantId),
      // Code tools first; allow-listed ids no code tool has may be the tenant's HTTP tools.
      tools: async (ids) => [...this.tools.forAllowList(ids), ...(await this.httpTools.forTenant(tenantId, ids.filter((id) => !this.tools.has(id))))],
      actions: this.actions.engineActions(),
      conditions: this.conditions.engineConditions(),
      name: row.name,
      store: hostStore,
    });
    this.logger.log(`agent ${row.id} built (${version === null ? 'draft' : `v${version}`})`);
    return { agentId: row.id, version, config, agent, provider: { name: provider.name, model: provider.model } };
  }
}

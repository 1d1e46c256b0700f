import { Injectable } from '@nestjs/common';
import type { Agent } from '@falai/agent';
import { buildEngineAgent, parseAgentConfig } from '@switchboard/agent-config';
import { PrismaService } from '@switchboard/db';
import type { AgentRunJobData } from '@switchboard/queue';
import { ActionRegistry } from '../actions/action-registry';
import { AgentNotFoundError } from '../agents/agent-catalog';
import { hostStore } from '../agents/host-store';
import { ProviderForConfig } from '../agents/provider-for-config';
import { ConditionRegistry } from '../conditions/condition-registry';
import { HttpTools } from '../http-tools/http-tools';
import type { TurnContext } from '../tools/agent-tool.decorator';
import { ToolRegistry } from '../tools/tool-registry';
import { RecordingProvider } from './recording-provider';
import { ReplayProvider } from './replay-provider';

export interface BuiltRunAgent {
  agent: Agent<TurnContext>;
  /** Live runs: the provider that records each reply (for tests saved from this run). */
  recorder?: RecordingProvider;
  /** Replay runs: the recorded replies. */
  replay?: ReplayProvider;
  version: number | null;
  provider: { name: string; model: string };
}

/**
 * Builds the engine agent a console run asks for — the saved draft, a published version, or a
 * config the API checked — with the same tools, actions and conditions as customer turns. Never
 * cached: a run is one job, and a draft changes between runs.
 */
@Injectable()
export class RunAgentBuilder {
  constructor(
    private readonly prisma: PrismaService,
    private readonly tools: ToolRegistry,
    private readonly providers: ProviderForConfig,
    private readonly httpTools: HttpTools,
    private readonly actions: ActionRegistry,
    private readonly conditions: ConditionRegistry,
  ) {}

  async build(data: AgentRunJobData): Promise<BuiltRunAgent> {
    const { tenantId, agentId, target } = data;
    const row = await this.prisma.agent.findFirst({ where: { id: agentId, tenantId }, select: { name: true, config: true } });
    if (!row) throw new AgentNotFoundError(agentId, 'no such agent for this tenant');
    let json: unknown = row.config;
    let version: number | null = null;
    if (target.kind === 'version') {
      const published = await this.prisma.agentVersion.findFirst({ where: { agentId, tenantId, version: target.version }, select: { config: true } });
      if (!published) throw new AgentNotFoundError(agentId, `version ${target.version} does not exist`);
      json = published.config;
      version = target.version;
    } else if (target.kind === 'config') {
      json = target.config;
    }
    const config = parseAgentConfig(json);
    let recorder: RecordingProvider | undefined;
    let replay: ReplayProvider | undefined;
    if (data.mode === 'replay') {
      replay = new ReplayProvider(data.recording ?? [], config.provider.model);
    } else {
      recorder = new RecordingProvider(await this.providers.build(tenantId, config.provider));
    }
    const provider = replay ?? recorder!;
    const codeTools = this.tools.forAllowList(config.tools);
    const httpTools = await this.httpTools.forTenant(tenantId, config.tools.filter((id) => !this.tools.has(id)));
    const agent = buildEngineAgent<TurnContext>(config, {
      tools: [...codeTools, ...httpTools],
      actions: this.actions.engineActions(),
      conditions: this.conditions.engineConditions(),
      provider,
      name: row.name,
      store: hostStore,
    });
    return { agent, recorder, replay, version, provider: { name: provider.name, model: provider.model } };
  }
}

import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Action } from '@falai/agent';
import type { TurnContext } from '../tools/agent-tool.decorator';
import { discoverMarked, type MarkedProvider } from '../discovery/discover-marked';
import { AgentActionMarker, type AgentActionHandler, type AgentActionOptions } from './agent-action.decorator';

export class DuplicateActionNameError extends Error {
  readonly code = 'duplicate-action-name';
  constructor(name: string, classes: string[]) {
    super(`[DuplicateActionNameError] action "${name}" is declared by ${classes.join(' and ')}. Give each @AgentAction a unique name.`);
    this.name = 'DuplicateActionNameError';
  }
}

export class InvalidActionProviderError extends Error {
  readonly code = 'invalid-action-provider';
  constructor(className: string, name: string) {
    super(`[InvalidActionProviderError] ${className} (@AgentAction "${name}") has no handle(params, ctx) method. Add one.`);
    this.name = 'InvalidActionProviderError';
  }
}

export interface RegisteredActionInfo {
  name: string;
  description?: string;
  params?: object;
  provider: string;
}

/** The worker's registered actions, found once at start-up among the Nest providers marked @AgentAction. */
@Injectable()
export class ActionRegistry implements OnModuleInit {
  private readonly logger = new Logger(ActionRegistry.name);
  private actions = new Map<string, { action: Action<TurnContext>; info: RegisteredActionInfo }>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    this.actions = discoverMarked(this.discovery, this.logger, {
      marker: AgentActionMarker,
      nameOf: (options: AgentActionOptions) => options.name,
      method: 'handle',
      plural: 'actions',
      invalid: (className, name) => new InvalidActionProviderError(className, name),
      duplicate: (name, classes) => new DuplicateActionNameError(name, classes),
      build: ({ options, instance, className }: MarkedProvider<AgentActionOptions, AgentActionHandler>) => ({
        action: {
          name: options.name,
          ...(options.params && { params: options.params }),
          handler: (params, ctx) => instance.handle(params, { ...ctx, idempotencyKey: ctx.key }),
        } satisfies Action<TurnContext>,
        info: { name: options.name, description: options.description, params: options.params, provider: className },
      }),
    });
  }

  list(): RegisteredActionInfo[] {
    return [...this.actions.values()].map((a) => a.info);
  }

  /** Every action, as the engine takes them; every agent gets all of them (flows pick by name). */
  engineActions(): Action<TurnContext>[] {
    return [...this.actions.values()].map((a) => a.action);
  }
}

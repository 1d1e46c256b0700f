import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Condition } from '@falai/agent';
import type { TurnContext } from '../tools/agent-tool.decorator';
import { discoverMarked, type MarkedProvider } from '../discovery/discover-marked';
import { AgentConditionMarker, type AgentConditionHandler, type AgentConditionOptions } from './agent-condition.decorator';

export class DuplicateConditionNameError extends Error {
  readonly code = 'duplicate-condition-name';
  constructor(name: string, classes: string[]) {
    super(`[DuplicateConditionNameError] condition "${name}" is declared by ${classes.join(' and ')}. Give each @AgentCondition a unique name.`);
    this.name = 'DuplicateConditionNameError';
  }
}

export class InvalidConditionProviderError extends Error {
  readonly code = 'invalid-condition-provider';
  constructor(className: string, name: string) {
    super(`[InvalidConditionProviderError] ${className} (@AgentCondition "${name}") has no test(ctx) method. Add one.`);
    this.name = 'InvalidConditionProviderError';
  }
}

export interface RegisteredConditionInfo {
  name: string;
  description?: string;
  provider: string;
}

/** The worker's registered conditions, found once at start-up among the Nest providers marked @AgentCondition. */
@Injectable()
export class ConditionRegistry implements OnModuleInit {
  private readonly logger = new Logger(ConditionRegistry.name);
  private conditions = new Map<string, { condition: Condition<TurnContext>; info: RegisteredConditionInfo }>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    this.conditions = discoverMarked(this.discovery, this.logger, {
      marker: AgentConditionMarker,
      nameOf: (options: AgentConditionOptions) => options.name,
      method: 'test',
      plural: 'conditions',
      invalid: (className, name) => new InvalidConditionProviderError(className, name),
      duplicate: (name, classes) => new DuplicateConditionNameError(name, classes),
      build: ({ options, instance, className }: MarkedProvider<AgentConditionOptions, AgentConditionHandler>) => ({
        condition: { name: options.name, test: (ctx) => instance.test(ctx) } satisfies Condition<TurnContext>,
        info: { name: options.name, description: options.description, provider: className },
      }),
    });
  }

  list(): RegisteredConditionInfo[] {
    return [...this.conditions.values()].map((c) => c.info);
  }

  engineConditions(): Condition<TurnContext>[] {
    return [...this.conditions.values()].map((c) => c.condition);
  }
}

import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Condition } from '@falai/agent';
import type { TurnContext } from '../tools/agent-tool.decorator';
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
  private readonly conditions = new Map<string, { condition: Condition<TurnContext>; info: RegisteredConditionInfo }>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders({ metadataKey: AgentConditionMarker.KEY })) {
      const options = this.discovery.getMetadataByDecorator(AgentConditionMarker, wrapper) as AgentConditionOptions;
      const instance = wrapper.instance as AgentConditionHandler | undefined;
      const className = wrapper.metatype?.name ?? String(wrapper.name);
      if (!instance || typeof instance.test !== 'function') throw new InvalidConditionProviderError(className, options.name);
      const existing = this.conditions.get(options.name);
      if (existing) throw new DuplicateConditionNameError(options.name, [existing.info.provider, className]);
      this.conditions.set(options.name, {
        condition: { name: options.name, test: (ctx) => instance.test(ctx) },
        info: { name: options.name, description: options.description, provider: className },
      });
    }
    this.logger.log(`conditions registered: ${[...this.conditions.keys()].sort().join(', ') || '(none)'}`);
  }

  list(): RegisteredConditionInfo[] {
    return [...this.conditions.values()].map((c) => c.info);
  }

  engineConditions(): Condition<TurnContext>[] {
    return [...this.conditions.values()].map((c) => c.condition);
  }
}

import { applyDecorators, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { ConditionCtx } from '@falai/agent';
import type { TurnContext } from '../tools/agent-tool.decorator';

export interface AgentConditionOptions {
  /** The name `if` steps and branches use. */
  name: string;
  description?: string;
}

/** The class a condition provider implements: `test` must be synchronous and free of side effects. */
export interface AgentConditionHandler<D = Record<string, unknown>> {
  test(ctx: ConditionCtx<TurnContext, D>): boolean;
}

export const AgentConditionMarker = DiscoveryService.createDecorator<AgentConditionOptions>();

/** Makes an injectable provider class an engine condition, found at start-up by ConditionRegistry. */
export function AgentCondition(options: AgentConditionOptions): ClassDecorator {
  return applyDecorators(Injectable(), AgentConditionMarker(options));
}

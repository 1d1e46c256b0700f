import { applyDecorators, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { ActionCtx, ActionResult, StructuredSchema } from '@falai/agent';
import type { TurnContext } from '../tools/agent-tool.decorator';

/**
 * An action handler's context: the engine's ActionCtx plus `idempotencyKey`, which is the
 * engine's `${runId}:${stepId}:${visit}` key — the same when a turn is replayed or a deferred
 * step runs again, so a side effect keyed by it happens once.
 */
export type AgentActionCtx<D = Record<string, unknown>> = ActionCtx<TurnContext, D> & { idempotencyKey: string };

export interface AgentActionOptions {
  /** The name `do` steps use. */
  name: string;
  /** For people (the console's list of actions). */
  description?: string;
  /** JSON Schema object a step's `with` must satisfy; checked at publish and when the agent is built. */
  params?: StructuredSchema;
}

/** The class an action provider implements: `handle` runs for each `do` step naming it. */
export interface AgentActionHandler<D = Record<string, unknown>> {
  handle(params: Record<string, unknown>, ctx: AgentActionCtx<D>): ActionResult<D> | Promise<ActionResult<D>>;
}

/** Discovery marker; read with `DiscoveryService.getMetadataByDecorator(AgentActionMarker, wrapper)`. */
export const AgentActionMarker = DiscoveryService.createDecorator<AgentActionOptions>();

/**
 * Makes an injectable provider class an engine action. The worker finds it at start-up
 * (ActionRegistry), gives it to every agent, and syncs it to RegisteredAction for publishing.
 */
export function AgentAction(options: AgentActionOptions): ClassDecorator {
  return applyDecorators(Injectable(), AgentActionMarker(options));
}

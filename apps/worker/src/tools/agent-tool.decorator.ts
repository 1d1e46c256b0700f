import { applyDecorators, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type {
  StructuredSchema,
  ToolCtx,
  ToolPermissionResult,
  ToolResult,
  ToolValidationResult,
} from '@falai/agent';

/** What the worker passes as `ctx.context` to every tool of a turn. */
export interface TurnContext {
  tenantId: string;
  sessionId: string;
  turnId: string;
  /** The inbound message the turn answers (absent for wakes). */
  messageId?: string;
}

/**
 * A tool handler's context: the engine's ToolCtx plus an idempotency key that is the same when a
 * turn is replayed (same message, same step visit, same tool, same arguments), for side effects.
 */
export type AgentToolCtx<D = Record<string, unknown>> = ToolCtx<TurnContext, D> & { idempotencyKey: string };

type Flag = boolean | ((input: Record<string, unknown>) => boolean);

export interface AgentToolOptions {
  id: string;
  description?: string;
  parameters?: StructuredSchema;
  isReadOnly?: Flag;
  isConcurrencySafe?: Flag;
  isDestructive?: Flag;
  maxResultSizeChars?: number;
  /**
   * Longest the handler may take before the call fails with a ToolTimeoutError the model reads
   * (the turn goes on). Default: the worker's TOOL_TIMEOUT_MS.
   */
  timeoutMs?: number;
}

/** The class a tool provider implements: `handle` is the tool's handler. */
export interface AgentToolHandler<D = Record<string, unknown>> {
  handle(args: Record<string, unknown>, ctx: AgentToolCtx<D>): ToolResult<D> | void | Promise<ToolResult<D> | void>;
  validateInput?(
    input: Record<string, unknown>,
    ctx: AgentToolCtx<D>,
  ): ToolValidationResult | Promise<ToolValidationResult>;
  checkPermissions?(
    input: Record<string, unknown>,
    ctx: AgentToolCtx<D>,
  ): ToolPermissionResult | Promise<ToolPermissionResult>;
}

/** Discovery marker; read with `DiscoveryService.getMetadataByDecorator(AgentToolMarker, wrapper)`. */
export const AgentToolMarker = DiscoveryService.createDecorator<AgentToolOptions>();

/**
 * Makes an injectable provider class an engine tool. The class implements AgentToolHandler; the
 * worker finds it at start-up (ToolRegistry) and offers it to agents whose allow-list names its id.
 */
export function AgentTool(options: AgentToolOptions): ClassDecorator {
  return applyDecorators(Injectable(), AgentToolMarker(options));
}

// The Tool contract of tool.md, field for field.
import type { History } from '../provider/types';
import type { Run } from './session';

/** A JSON Schema object for a tool's arguments, passed to the provider as given. */
export interface StructuredSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
}

export interface ToolCtx<C = unknown, D = unknown> {
  /** The host context of this turn. */
  context: C;
  /** Session fields at the start of the speak call, plus the data patches of earlier rounds. */
  data: Partial<D>;
  /** The host's history for this turn plus the assistant and tool items of earlier rounds. */
  history: History;
  /** The run whose talk step is speaking; absent for the idle speaker. */
  run?: Run;
  /** The agent's clock. */
  now: Date;
}

export interface ToolResult<D = unknown> {
  /** What the model reads: a string as is, else JSON; `undefined` reads `{"ok":true}`. */
  value?: unknown;
  /** Merged into the session's fields when the turn settles, as given (no coercion). */
  data?: Partial<D>;
}

export interface ToolValidationResult {
  valid: boolean;
  error?: string;
  correctedInput?: Record<string, unknown>;
}

export interface ToolPermissionResult {
  allowed: boolean;
  reason?: string;
}

export interface Tool<C = unknown, D = unknown> {
  id: string;
  description?: string;
  parameters?: StructuredSchema;
  // Method syntax on purpose: tools typed for a narrower context or data still fit an agent's list.
  handler(args: Record<string, unknown>, ctx: ToolCtx<C, D>): ToolResult<D> | void | Promise<ToolResult<D> | void>;

  isConcurrencySafe?(input: Record<string, unknown>): boolean;
  isReadOnly?(input: Record<string, unknown>): boolean;
  isDestructive?(input: Record<string, unknown>): boolean;
  maxResultSizeChars?: number;
  validateInput?(
    input: Record<string, unknown>,
    ctx: ToolCtx<C, D>,
  ): ToolValidationResult | Promise<ToolValidationResult>;
  checkPermissions?(
    input: Record<string, unknown>,
    ctx: ToolCtx<C, D>,
  ): ToolPermissionResult | Promise<ToolPermissionResult>;
}

/**
 * Any tool, whatever context and data it was typed for. An agent's tool list mixes tools typed
 * `Tool` (unknown data) with tools typed `Tool<undefined, Data>`; `ToolResult<unknown>` is not
 * assignable to `ToolResult<Data>`, so the list erases both parameters.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- heterogeneous list, see above
export type AnyTool = Tool<any, any>;

/** A record of a call that already happened, in event-style history (tool.md). */
export interface ToolCall<TArgs = unknown, TResult = unknown> {
  tool_id: string;
  arguments: TArgs;
  result: { data: TResult; meta?: Record<string, unknown> };
}

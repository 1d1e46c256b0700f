import { createHash } from 'node:crypto';
import type { AnyTool, ToolCtx } from '@falai/agent';
import type { AgentToolCtx, AgentToolHandler, AgentToolOptions, TurnContext } from './agent-tool.decorator';
import { DEFAULT_TOOL_TIMEOUT_MS, withToolTimeout } from './tool-timeout';

// Turns a discovered tool provider into the engine's Tool object (tool.md), keeping only the
// optional members the provider defines so the engine's defaults apply to the rest.

function asPredicate(flag: boolean | ((input: Record<string, unknown>) => boolean)) {
  return typeof flag === 'function' ? flag : () => flag;
}

/** JSON with sorted keys, so equal arguments hash equally whatever their key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Same message, same step visit, same tool and arguments → same key, across replays and workers. */
export function idempotencyKey(toolId: string, args: Record<string, unknown>, ctx: ToolCtx<TurnContext>): string {
  const c = ctx.context;
  const where = ctx.run
    ? `${ctx.run.id}:${ctx.run.stepId}:${ctx.run.visits[ctx.run.stepId] ?? 0}`
    : `idle:${c.messageId ?? c.turnId}`;
  const argsHash = createHash('sha256').update(stableJson(args)).digest('hex').slice(0, 16);
  return `${c.sessionId}:${where}:${toolId}:${argsHash}`;
}

/** `defaultTimeoutMs` applies when the decorator sets no `timeoutMs` (the worker passes TOOL_TIMEOUT_MS). */
export function toEngineTool(
  handler: AgentToolHandler,
  options: AgentToolOptions,
  defaultTimeoutMs: number = DEFAULT_TOOL_TIMEOUT_MS,
): AnyTool {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const withKey = (args: Record<string, unknown>, ctx: ToolCtx<TurnContext>): AgentToolCtx => ({
    ...(ctx as ToolCtx<TurnContext, Record<string, unknown>>),
    idempotencyKey: idempotencyKey(options.id, args, ctx),
  });
  const tool: AnyTool = {
    id: options.id,
    handler: (args: Record<string, unknown>, ctx: ToolCtx<TurnContext>) =>
      withToolTimeout(options.id, timeoutMs, () => handler.handle(args, withKey(args, ctx))),
  };
  if (options.description !== undefined) tool.description = options.description;
  if (options.parameters !== undefined) tool.parameters = options.parameters;
  if (options.maxResultSizeChars !== undefined) tool.maxResultSizeChars = options.maxResultSizeChars;
  if (options.isReadOnly !== undefined) tool.isReadOnly = asPredicate(options.isReadOnly);
  if (options.isConcurrencySafe !== undefined) tool.isConcurrencySafe = asPredicate(options.isConcurrencySafe);
  if (options.isDestructive !== undefined) tool.isDestructive = asPredicate(options.isDestructive);
  const validate = handler.validateInput?.bind(handler);
  if (validate) tool.validateInput = (input: Record<string, unknown>, ctx: ToolCtx<TurnContext>) => validate(input, withKey(input, ctx));
  const permit = handler.checkPermissions?.bind(handler);
  if (permit) tool.checkPermissions = (input: Record<string, unknown>, ctx: ToolCtx<TurnContext>) => permit(input, withKey(input, ctx));
  return tool;
}

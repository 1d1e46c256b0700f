// Which tools a speak call offers (tool.md, "Which tools the model sees").
import type { ToolDeclaration } from '../provider';
import type { AnyTool } from '../types/tool';

/**
 * Resolves an allow-list once per speak call. `lists` are tried in order (step, then flow for a
 * talk step; idle for the idle speaker); the first defined one wins, else every tool on the agent.
 * Duplicated ids stay duplicated: both are sent, and the first one's handler runs.
 */
export function offeredTools(
  all: readonly AnyTool[],
  lists: readonly (readonly string[] | undefined)[],
  maxToolLoops: number,
): AnyTool[] {
  if (maxToolLoops <= 0) return [];
  const list = lists.find((l) => l !== undefined);
  if (list === undefined) return [...all];
  const allowed = new Set(list);
  return all.filter((tool) => allowed.has(tool.id));
}

export function declarationOf(tool: AnyTool): ToolDeclaration {
  const decl: ToolDeclaration = { name: tool.id };
  if (tool.description !== undefined) decl.description = tool.description;
  if (tool.parameters !== undefined) decl.parameters = tool.parameters;
  return decl;
}

/** The tool that answers calls under `name`: the first offered one with that id. */
export function toolFor(offered: readonly AnyTool[], name: string): AnyTool | undefined {
  return offered.find((tool) => tool.id === name);
}

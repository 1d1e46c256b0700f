// Checks an agent's options once (engine.md §1 construction errors), freezes what the turn
// machinery reads, and exposes `turn` and `turnStream` over the one decision path.
import { validateAgentDefinition } from '../definition/validate-agent';
import { systemClock } from '../clock/clock';
import { MemoryStore } from '../store';
import type { Agent, AgentOptions } from '../types/agent';
import type { FieldsDef } from '../types/fields';
import type { TurnChunk, TurnInput } from '../types/turn';
import { type AgentDefinition, DEFAULT_MAX_TOOL_LOOPS } from '../turn/definition';
import { runTurn } from '../turn/run-turn';
import { streamTurn } from '../turn/stream';

export function createAgent<C, D>(fields: FieldsDef, options: AgentOptions): Agent<C, D> {
  validateAgentDefinition({
    name: options.name,
    fields,
    tools: options.tools,
    flows: options.flows,
    idle: options.idle,
    maxToolLoops: options.maxToolLoops,
    actions: options.actions ?? [],
    conditions: options.conditions ?? [],
  });
  const flows = [...options.flows];
  const def: AgentDefinition = {
    name: options.name,
    provider: options.provider,
    fields,
    flows,
    flowById: new Map(flows.map((flow) => [flow.id, flow])),
    tools: [...options.tools],
    // Names are unique (checked above), so a map loses nothing.
    actions: new Map((options.actions ?? []).map((a) => [a.name, a])),
    conditions: new Map((options.conditions ?? []).map((c) => [c.name, c])),
    idle: options.idle,
    maxToolLoops: options.maxToolLoops ?? DEFAULT_MAX_TOOL_LOOPS,
    clock: options.clock ?? systemClock,
    store: options.store ?? new MemoryStore(),
    instructions: options.instructions,
  };
  return {
    name: def.name,
    turn: (input: TurnInput<C, D>) => runTurn(def, input as TurnInput),
    turnStream: (input: TurnInput<C, D>): AsyncIterable<TurnChunk> => streamTurn(def, input as TurnInput),
  };
}

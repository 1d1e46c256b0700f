// The agent as the turn machinery reads it: options checked once by `f.agent()`, then frozen.
import type { AiProvider } from '../provider';
import type { Clock, Store } from '../types/agent';
import type { FieldsDef } from '../types/fields';
import type { Flow, IdleConfig } from '../types/flow';
import type { AnyTool } from '../types/tool';
import type { AnyAction, AnyCondition } from '../types/action';

export const DEFAULT_MAX_TOOL_LOOPS = 5;
export const DEFAULT_MAX_ASKS = 3;
/** Routing: a flow starts at this score (of 100)... */
export const START_SCORE = 40;
/** ...and takes the floor from an asking run only this far above the asker's flow. */
export const FLOOR_MARGIN = 15;
/** A run that moves through this many steps in one turn ends (`step-loop`). */
export const STEP_LOOP_LIMIT = 50;
/** A chain of flows (`then: { flow }`) may not start a run at this hop. */
export const HOP_LIMIT = 5;
/** A timer wait this short, followed by a say or talk step, is that message's `afterMs`, not a wake. */
export const INLINE_DELAY_MS = 10_000;
/** How long an event wait waits when it names no `upTo`. */
export const DEFAULT_EVENT_WAIT = '30d';
/** Input ids and run outcomes kept in the session. */
export const KEEP_INPUTS = 50;
export const KEEP_OUTCOMES = 50;

export interface AgentDefinition {
  name: string;
  provider: AiProvider;
  fields: FieldsDef;
  flows: readonly Flow[];
  flowById: ReadonlyMap<string, Flow>;
  tools: readonly AnyTool[];
  actions: ReadonlyMap<string, AnyAction>;
  conditions: ReadonlyMap<string, AnyCondition>;
  idle: IdleConfig | undefined;
  maxToolLoops: number;
  clock: Clock;
  store: Store;
  instructions: string | undefined;
}

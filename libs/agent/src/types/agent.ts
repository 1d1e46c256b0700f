// Building an agent (engine.md §1) and the ports it reads time and sessions through (§5).
import type { AiProvider } from '../provider';
import type { Flow, IdleConfig } from './flow';
import type { FieldsDef } from './fields';
import type { Session } from './session';
import type { AnyTool, StructuredSchema } from './tool';
import type { AnyAction, AnyCondition } from './action';
import type { TurnChunk, TurnInput, TurnResult } from './turn';

export interface Clock {
  now(): Date;
}

export interface Store {
  load(id: string): Promise<Session | undefined>;
  /**
   * `expectedVersion` 0 inserts (fails if a row exists); `n` updates only a row still at `n` and
   * stores `n + 1`. Otherwise throws `SessionConflictError`. Returns the session as stored.
   */
  save(session: Session, expectedVersion: number): Promise<Session>;
}

export interface AgentOptions<S extends string = string> {
  name: string;
  provider: AiProvider;
  tools: AnyTool[];
  flows: Flow<S>[];
  /** Actions `do` steps run, besides those registered with `f.action()`. */
  actions?: AnyAction[];
  /** Conditions predicates name, besides those registered with `f.condition()`. */
  conditions?: AnyCondition[];
  idle?: IdleConfig;
  /** Rounds that offer tools in one speak call. Default 5; 0 sends no tools. */
  maxToolLoops?: number;
  clock?: Clock;
  /** Where sessions live when the host passes none. Default: a fresh `MemoryStore`. */
  store?: Store;
  /** The agent's own instructions, first in every system prompt. */
  instructions?: string;
}

/** What `validateFlow` checks names against. */
export interface FlowRegistries {
  fields: FieldsDef;
  /** Registered tool ids. */
  tools: readonly string[];
  /** Registered actions by name, with their params schema (absent: the action takes none). Absent: no actions. */
  actions?: Readonly<Record<string, StructuredSchema | undefined>>;
  /** Registered condition names. Absent: no conditions. */
  conditions?: readonly string[];
  /** Flow ids `then: { flow }` may name. Absent: not checked (validating one flow alone). */
  flows?: readonly string[];
}

export interface Agent<C = unknown, D = unknown> {
  readonly name: string;
  turn(input: TurnInput<C, D>): Promise<TurnResult>;
  turnStream(input: TurnInput<C, D>): AsyncIterable<TurnChunk>;
}

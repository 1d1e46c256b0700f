// The typed entry point (engine.md §1): `falai<Ctx>().fields({...})` gives `f`, whose `flow`
// checks collect lists against the field slugs and whose `agent` builds a checked agent.
import type { Agent, AgentOptions } from '../types/agent';
import type { DataOf, FieldsDef, SlugOf } from '../types/fields';
import type { Flow } from '../types/flow';
import type { Action, AnyAction, AnyCondition, Condition } from '../types/action';
import { createAgent } from './create-agent';

export interface Falai<C, F extends FieldsDef> {
  readonly fields: F;
  /** Returns the flow as given; typed so `collect` and `ask` name only real fields. */
  flow(flow: Flow<SlugOf<F>>): Flow<SlugOf<F>>;
  /** Registers an action for `do` steps of agents this builder makes; returns it. */
  action(name: string, action: Omit<Action<C, DataOf<F>>, 'name'>): Action<C, DataOf<F>>;
  /** Registers a condition predicates may name; returns it. */
  condition(name: string, test: Condition<C, DataOf<F>>['test']): Condition<C, DataOf<F>>;
  /** Builds the agent; throws FlowConfigurationError for anything it cannot run. */
  agent(options: AgentOptions<SlugOf<F>>): Agent<C, DataOf<F>>;
}

export interface FalaiStart<C> {
  fields<const F extends FieldsDef>(fields: F): Falai<C, F>;
}

export function falai<C = unknown>(): FalaiStart<C> {
  return {
    fields<const F extends FieldsDef>(fields: F): Falai<C, F> {
      const actions: AnyAction[] = [];
      const conditions: AnyCondition[] = [];
      return {
        fields,
        flow: (flow) => flow,
        action(name, action) {
          const registered = { ...action, name };
          actions.push(registered);
          return registered;
        },
        condition(name, test) {
          const registered = { name, test };
          conditions.push(registered);
          return registered;
        },
        agent: (options) =>
          createAgent<C, DataOf<F>>(fields, {
            ...(options as AgentOptions),
            actions: [...actions, ...(options.actions ?? [])],
            conditions: [...conditions, ...(options.conditions ?? [])],
          }),
      };
    },
  };
}

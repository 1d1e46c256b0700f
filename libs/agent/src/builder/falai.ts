// The typed entry point (engine.md §1): `falai<Ctx>().fields({...})` gives `f`, whose `flow`
// checks collect lists against the field slugs and whose `agent` builds a checked agent.
import type { Agent, AgentOptions } from '../types/agent';
import type { DataOf, FieldsDef, SlugOf } from '../types/fields';
import type { Flow } from '../types/flow';
import { createAgent } from './create-agent';

export interface Falai<C, F extends FieldsDef> {
  readonly fields: F;
  /** Returns the flow as given; typed so `collect` and `ask` name only real fields. */
  flow(flow: Flow<SlugOf<F>>): Flow<SlugOf<F>>;
  /** Builds the agent; throws FlowConfigurationError for anything it cannot run. */
  agent(options: AgentOptions<SlugOf<F>>): Agent<C, DataOf<F>>;
}

export interface FalaiStart<C> {
  fields<const F extends FieldsDef>(fields: F): Falai<C, F>;
}

export function falai<C = unknown>(): FalaiStart<C> {
  return {
    fields<const F extends FieldsDef>(fields: F): Falai<C, F> {
      return {
        fields,
        flow: (flow) => flow,
        agent: (options) => createAgent<C, DataOf<F>>(fields, options as AgentOptions),
      };
    },
  };
}
